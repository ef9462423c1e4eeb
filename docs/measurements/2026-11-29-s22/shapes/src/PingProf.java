import dev.spindle.async.*;
import dev.spindle.bench.async.PingPongAsync;
import java.util.concurrent.*;
import java.lang.management.*;
public class PingProf {
    static long allocated() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long id : mx.getAllThreadIds()) { long b = mx.getThreadAllocatedBytes(id); if (b > 0) sum += b; }
        return sum;
    }

    public static void main(String[] a) throws Exception {
        PingPongAsync w = new PingPongAsync(1000);
        int workers = Integer.parseInt(a[1]);
        long secs = Long.parseLong(a[2]);
        if (a[0].equals("cf")) {
            ForkJoinPool pool = new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
            long w0 = System.nanoTime(); while (System.nanoTime() - w0 < 3_000_000_000L) w.run(pool);
            long b0 = allocated();
            long t0 = System.nanoTime(); int n = 0;
            while (System.nanoTime() - t0 < secs * 1_000_000_000L) { w.run(pool); n++; }
            System.out.printf("cf w%d %.1f ns/pair %.0f B/pair%n", workers, (System.nanoTime() - t0) / 1e3 / n, (allocated() - b0) / 1e3 / n);
        } else {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.valueOf(a[0])).build()) {
                long w0 = System.nanoTime(); while (System.nanoTime() - w0 < 3_000_000_000L) w.run(rt);
                long b0 = allocated();
                long t0 = System.nanoTime(); int n = 0;
                while (System.nanoTime() - t0 < secs * 1_000_000_000L) { w.run(rt); n++; }
                System.out.printf("%s w%d %.1f ns/pair %.0f B/pair%n", a[0], workers, (System.nanoTime() - t0) / 1e3 / n, (allocated() - b0) / 1e3 / n);
            }
        }
        System.exit(0);
    }
}
