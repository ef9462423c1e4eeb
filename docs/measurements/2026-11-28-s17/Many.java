import dev.spindle.async.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
public class Many {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> p = new AsyncPromise<>();
            AtomicInteger polled = new AtomicInteger();
            long t0 = System.nanoTime();
            List<JoinHandle<Integer>> hs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) hs.add(rt.spawn(Async.map(cx -> { polled.incrementAndGet(); return p.poll(cx); }, v -> v + 1)));
            while (polled.get() < n) Thread.sleep(1);
            long t1 = System.nanoTime();
            p.complete(1);
            for (var h : hs) h.get();
            long t2 = System.nanoTime();
            System.out.printf("n=%d register %.1f ms, complete+join %.1f ms%n", n, (t1-t0)/1e6, (t2-t1)/1e6);
        }
    }
}
