import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** chained-spawn of several lengths on one runtime kind: median per run. */
public class CS {
    public static void main(String[] a) throws Exception {
        String kind = a[0]; int w = Integer.parseInt(a[1]);
        BenchRuntime rt = Runtimes.create(RuntimeKind.byId(kind), w);
        rt.prestart();
        int[] lens = {1, 1000, 10000, 100000};
        for (int rep = 0; rep < 3; rep++) {
            StringBuilder sb = new StringBuilder(kind + " w=" + w + ":");
            for (int len : lens) {
                Workload work = new ChainedSpawn(len);
                long end = System.nanoTime() + 1_000_000_000L; long[] t = new long[1_000_000]; int n = 0;
                while (System.nanoTime() < end) { long t0 = System.nanoTime(); work.run(rt); t[n++] = System.nanoTime() - t0; }
                java.util.Arrays.sort(t, 0, n);
                sb.append(String.format("  len %d: %.1f us", len, t[n / 2] / 1e3));
            }
            System.out.println(sb);
        }
        System.exit(0);
    }
}
