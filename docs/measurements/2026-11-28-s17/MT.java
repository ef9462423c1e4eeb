import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One workload on one runtime kind: median run time in each 1 s window. */
public class MT {
    public static void main(String[] a) throws Exception {
        String wl = a[0]; String kind = a[1]; int w = Integer.parseInt(a[2]); int secs = Integer.parseInt(a[3]);
        Workload work = Workloads.create(wl, Size.FULL);
        BenchRuntime rt = Runtimes.create(RuntimeKind.byId(kind), w);
        rt.prestart();
        long start = System.nanoTime(); StringBuilder sb = new StringBuilder(wl + " " + kind + ":");
        for (int s = 0; s < secs; s++) {
            long end = start + (s + 1) * 1_000_000_000L; long[] t = new long[100000]; int n = 0;
            while (System.nanoTime() < end) { long t0 = System.nanoTime(); work.run(rt); t[n++] = System.nanoTime() - t0; }
            java.util.Arrays.sort(t, 0, n);
            sb.append(String.format(" %.1f", t[n / 2] / 1e6));
        }
        System.out.println(sb + " ms");
        System.exit(0);
    }
}
