import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.*;
/** PP PAIRS BOUNCES SECS: median time per run, spindle and fjp alternated in one JVM (4 phases). */
public class PP {
    public static void main(String[] a) throws Exception {
        int pairs = Integer.parseInt(a[0]), bounces = Integer.parseInt(a[1]); double secs = Double.parseDouble(a[2]);
        Workload wl = new PingPong(pairs, bounces);
        for (int phase = 0; phase < 4; phase++) {
            for (RuntimeKind kind : new RuntimeKind[] {RuntimeKind.SPINDLE, RuntimeKind.FJP}) {
                try (BenchRuntime rt = Runtimes.create(kind, 2)) {
                    rt.prestart();
                    List<Long> times = new ArrayList<>();
                    long end = System.nanoTime() + (long) (secs * 1e9);
                    while (System.nanoTime() < end) { long t0 = System.nanoTime(); wl.run(rt); times.add(System.nanoTime() - t0); }
                    Collections.sort(times); int n = times.size();
                    if (phase > 0) System.out.printf("%d x %d %s median=%.4f ms (%.1f ns/hop)%n", pairs, bounces, kind.id(), times.get(n/2)/1e6, times.get(n/2)/(double)(pairs*(bounces+1)));
                }
            }
        }
    }
}
