import dev.spindle.async.*;
import dev.spindle.SchedulerStats;
import java.util.*;
import java.util.concurrent.*;

/** fan-out on WORK_STEALING alternated with the same on virtual threads: per-run time and the runtime's stats. */
public class FanVt {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        boolean withVt = Boolean.parseBoolean(a[1]);
        ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        System.setProperty("jdk.virtualThreadScheduler.parallelism", "" + workers);
        try (AsyncRuntime ws = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.valueOf(a.length > 2 ? a[2] : "WORK_STEALING")).build()) {
            long w0 = System.nanoTime();
            while (System.nanoTime() - w0 < 1_500_000_000L) { Shapes.fanSpindle(ws); if (withVt) Shapes.fanVt(vt); }
            long[] t = new long[30];
            SchedulerStats s0 = ws.stats();
            for (int r = 0; r < t.length; r++) {
                if (withVt) Shapes.fanVt(vt);
                Thread.sleep(1);
                long t0 = System.nanoTime(); Shapes.fanSpindle(ws); t[r] = System.nanoTime() - t0;
            }
            SchedulerStats s1 = ws.stats();
            Arrays.sort(t);
            System.out.printf("vt=%s median %.3f ms [%.3f-%.3f] per run: polls %d wakeups %d steals %d parks %d unparks %d%n", withVt, t[15] / 1e6, t[0] / 1e6, t[29] / 1e6,
                (s1.polls() - s0.polls()) / 30, (s1.wakeups() - s0.wakeups()) / 30, (s1.steals() - s0.steals()) / 30, (s1.parks() - s0.parks()) / 30, (s1.unparks() - s0.unparks()) / 30);
        }
        System.exit(0);
    }
}
