import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import dev.spindle.SchedulerStats;
/** One workload on Spindle: per 1 s window the median run and, per run, parks, unparks, wakeups, steals. */
public class PS {
    public static void main(String[] a) throws Exception {
        String wl = a[0]; int w = Integer.parseInt(a[1]); int secs = Integer.parseInt(a[2]);
        Workload work = Workloads.create(wl, Size.FULL);
        BenchRuntime rt = Runtimes.create(RuntimeKind.SPINDLE, w);
        rt.prestart();
        var pool = rt.spindle();
        long start = System.nanoTime();
        for (int s = 0; s < secs; s++) {
            long end = start + (s + 1) * 1_000_000_000L; long[] t = new long[200000]; int n = 0;
            SchedulerStats s0 = pool.stats();
            while (System.nanoTime() < end) { long t0 = System.nanoTime(); work.run(rt); t[n++] = System.nanoTime() - t0; }
            SchedulerStats s1 = pool.stats();
            java.util.Arrays.sort(t, 0, n);
            System.out.printf("%s s%d n=%d med %.1f us  per run: parks %.2f unparks %.2f wakeups %.2f steals %.2f%n", wl, s, n, t[n/2]/1e3,
                (s1.parks()-s0.parks())/(double)n, (s1.unparks()-s0.unparks())/(double)n, (s1.wakeups()-s0.wakeups())/(double)n, (s1.steals()-s0.steals())/(double)n);
        }
        System.exit(0);
    }
}
