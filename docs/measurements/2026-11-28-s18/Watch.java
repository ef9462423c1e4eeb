import dev.spindle.async.AsyncPolicy;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Watch.java: what the async runtime's watcher costs and buys.
 *   java -cp spindle.jar:. Watch idle W SECONDS   idle runtime of W workers: CPU per thread and process
 *   java -cp spindle.jar:. Watch busy W SECONDS   the same while one poll computes throughout
 *   java -cp spindle.jar:. Watch stall W N        N times: a poll spawns a child, then blocks on
 *                                                 it with get(); time until the child ran
 */
public class Watch {
    public static void main(String[] a) throws Exception {
        String mode = a[0];
        int w = Integer.parseInt(a[1]);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(w).policy(AsyncPolicy.WORK_STEALING).build()) {
            if (mode.equals("idle") || mode.equals("busy")) {
                int secs = Integer.parseInt(a[2]);
                rt.spawn(cx -> Poll.ready(1)).get();
                if (mode.equals("busy")) {
                    long end = System.nanoTime() + (secs + 2) * 1_000_000_000L;
                    rt.spawn(cx -> {                   // one poll that computes for the whole run
                        long x = 0;
                        while (System.nanoTime() < end) {
                            x += System.nanoTime() & 1;
                        }
                        return Poll.ready(x);
                    });
                }
                Thread.sleep(1000);
                var tm = ManagementFactory.getThreadMXBean();
                java.util.Map<Long, Long> before = new java.util.HashMap<>();
                for (long id : tm.getAllThreadIds()) {
                    before.put(id, tm.getThreadCpuTime(id));
                }
                long c0 = os.getProcessCpuTime(), t0 = System.nanoTime();
                Thread.sleep(secs * 1000L);
                long c1 = os.getProcessCpuTime(), t1 = System.nanoTime();
                for (long id : tm.getAllThreadIds()) {
                    long d = tm.getThreadCpuTime(id) - before.getOrDefault(id, 0L);
                    if (d > 1_000_000L) {
                        System.out.printf("  %-40s %.2f ms%n", tm.getThreadInfo(id).getThreadName(), d / 1e6);
                    }
                }
                System.out.printf(mode + " %d workers: process CPU %.3f %% of a core over %d s (JVM threads included)%n",
                        w, 100.0 * (c1 - c0) / (t1 - t0), secs);
            } else {
                int n = Integer.parseInt(a[2]);
                long[] us = new long[n];
                for (int i = 0; i < n; i++) {
                    long[] at = new long[2];
                    JoinHandle<Long> p = rt.spawn(cx -> {
                        try {
                            Thread.sleep(5);           // let the peer park first
                            at[0] = System.nanoTime();
                            JoinHandle<Long> child = rt.spawn(c2 -> Poll.ready(System.nanoTime()));
                            return Poll.ready(child.get(10, TimeUnit.SECONDS));
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    us[i] = (p.get() - at[0]) / 1000;
                }
                Arrays.sort(us);
                System.out.printf("stall %d workers, %d runs: spawn-to-run of the child, us: min %d median %d p90 %d max %d%n",
                        w, n, us[0], us[n / 2], us[n * 9 / 10], us[n - 1]);
            }
        }
    }
}
