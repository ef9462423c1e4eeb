import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One workload on Spindle with an idle gap (ms) before every run: median run per 1 s window. */
public class PG {
    public static void main(String[] a) throws Exception {
        String wl = a[0]; int gapMs = Integer.parseInt(a[1]); int secs = Integer.parseInt(a[2]);
        Workload work = Workloads.create(wl, Size.FULL);
        BenchRuntime rt = Runtimes.create(RuntimeKind.SPINDLE, 2);
        rt.prestart();
        StringBuilder sb = new StringBuilder(wl + " gap " + gapMs + ":");
        long start = System.nanoTime();
        for (int s = 0; s < secs; s++) {
            long end = start + (s + 1) * 1_000_000_000L; long[] t = new long[200000]; int n = 0;
            while (System.nanoTime() < end) { if (gapMs > 0) Thread.sleep(gapMs); long t0 = System.nanoTime(); work.run(rt); t[n++] = System.nanoTime() - t0; }
            java.util.Arrays.sort(t, 0, n);
            sb.append(String.format(" %.0f", t[n/2]/1e3));
        }
        System.out.println(sb + " us");
        System.exit(0);
    }
}
