import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import dev.spindle.SchedulerStats;
import java.util.*;

/** PS WORKLOAD WORKERS SECS [spindle|fjp]: median time per run and park/unpark counts per run. */
public class PS {
    public static void main(String[] a) throws Exception {
        String name = a[0]; int workers = Integer.parseInt(a[1]); double secs = Double.parseDouble(a[2]);
        RuntimeKind kind = a.length > 3 && a[3].equals("fjp") ? RuntimeKind.FJP : RuntimeKind.SPINDLE;
        Workload wl = Workloads.create(name, Size.FULL);
        try (BenchRuntime rt = Runtimes.create(kind, workers)) {
            rt.prestart();
            long end = System.nanoTime() + (long) (secs * 0.3e9);
            while (System.nanoTime() < end) wl.run(rt);
            long[] before = counts(rt);
            List<Long> times = new ArrayList<>();
            end = System.nanoTime() + (long) (secs * 1e9);
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                wl.run(rt);
                times.add(System.nanoTime() - t0);
            }
            long[] after = counts(rt);
            Collections.sort(times);
            int n = times.size();
            System.out.printf("%s %s runs=%d median=%.4f ms p10=%.4f p90=%.4f", name, kind.id(), n,
                    times.get(n / 2) / 1e6, times.get(n / 10) / 1e6, times.get(n * 9 / 10) / 1e6);
            if (after != null) {
                System.out.printf(" parks/run=%.2f unparks/run=%.2f steals/run=%.1f", (after[0] - before[0]) / (double) n,
                        (after[1] - before[1]) / (double) n, (after[2] - before[2]) / (double) n);
            }
            System.out.println();
        }
    }
    static long[] counts(BenchRuntime rt) {
        if (rt.spindle() == null) return null;
        SchedulerStats s = rt.spindle().stats();
        long p = 0, u = 0, st = 0;
        for (SchedulerStats.WorkerStats w : s.workers()) { p += w.parks(); u += w.unparks(); st += w.steals(); }
        return new long[] {p, u, st};
    }
}
