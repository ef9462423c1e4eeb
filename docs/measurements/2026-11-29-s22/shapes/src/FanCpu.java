import dev.spindle.async.*;
import java.lang.management.*;
import java.util.*;
import java.util.concurrent.*;

/** Shapes' fan-out with ws, hy, cf and vt in one JVM, as Shapes runs it, then each thread's CPU time over a measured phase of ws runs alone. */
public class FanCpu {
    public static void main(String[] a) throws Exception {
        int workers = 1;
        ForkJoinPool pool = new ForkJoinPool(workers);
        ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        System.setProperty("jdk.virtualThreadScheduler.parallelism", "" + workers);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (AsyncRuntime ws = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.WORK_STEALING).build();
             AsyncRuntime hy = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.HYBRID).build()) {
            for (int phase = 0; phase < 4; phase++) {
                long w0 = System.nanoTime();
                while (System.nanoTime() - w0 < 1_000_000_000L) { Shapes.fanSpindle(ws); Shapes.fanSpindle(hy); Shapes.fanCf(pool); Shapes.fanVt(vt); }
                Map<Long, Long> cpu0 = new HashMap<>();
                for (long id : mx.getAllThreadIds()) cpu0.put(id, mx.getThreadCpuTime(id));
                long[] t = new long[200];
                long p0 = System.nanoTime();
                for (int r = 0; r < t.length; r++) { long t0 = System.nanoTime(); Shapes.fanSpindle(ws); t[r] = System.nanoTime() - t0; }
                long wall = System.nanoTime() - p0;
                Arrays.sort(t);
                StringBuilder sb = new StringBuilder(String.format("phase %d ws median %.3f ms, wall %.1f ms; cpu ms:", phase, t[100] / 1e6, wall / 1e6));
                for (long id : mx.getAllThreadIds()) {
                    ThreadInfo ti = mx.getThreadInfo(id); if (ti == null) continue;
                    long c = mx.getThreadCpuTime(id) - cpu0.getOrDefault(id, 0L);
                    if (c > 1_000_000) sb.append(String.format(" %s=%.1f", ti.getThreadName(), c / 1e6));
                }
                System.out.println(sb);
            }
        }
        System.exit(0);
    }
}
