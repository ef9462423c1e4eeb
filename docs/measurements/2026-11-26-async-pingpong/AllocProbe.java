import dev.spindle.async.*;
import java.lang.management.ManagementFactory;

public class AllocProbe {
    static final com.sun.management.ThreadMXBean MX = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    static Object sink;
    interface Op { Object make(int i); }
    static void measure(String name, Op op) {
        int n = 200_000;
        Object[] keep = new Object[n];
        for (int w = 0; w < 3; w++) for (int i = 0; i < n; i++) keep[i] = op.make(i);
        long t = Thread.currentThread().getId();
        long a = MX.getThreadAllocatedBytes(t);
        for (int i = 0; i < n; i++) keep[i] = op.make(i);
        long b = MX.getThreadAllocatedBytes(t);
        sink = keep;
        System.out.printf("%-40s %6.1f bytes%n", name, (b - a) / (double) n);
    }
    public static void main(String[] args) {
        Context cx = new Context() {
            public Waker waker() { return () -> {}; }
            public boolean consumeBudget() { return true; }
        };
        measure("new AsyncChannel<>(1)", i -> new AsyncChannel<Integer>(1));
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Integer one = 1;
        measure("send op (object only)", i -> ch.send(one));
        measure("receive op (object only)", i -> ch.receive());
        measure("send+receive polled (one exchange)", i -> { ch.send(one).poll(cx); return ch.receive().poll(cx); });
        measure("Async.ready(null)", i -> Async.ready(null));
        measure("Poll.ready(null)", i -> Poll.ready(null));
        measure("Async.then(ready, fn)", i -> Async.then(Async.ready(null), x -> Async.ready(null)));
        measure("Async.map(ready, fn)", i -> Async.map(Async.ready(null), x -> null));
    }
}
