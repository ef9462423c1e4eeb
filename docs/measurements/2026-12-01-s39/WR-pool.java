import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One build's side of an in-JVM A/B of a fork/join-suite workload on Spindle's WorkStealingPool (session 39). */
public class WR {
    static BenchRuntime rt; static Workload wl;
    public static void init(int workers, String name) { rt = Runtimes.create(RuntimeKind.byId("spindle"), workers); rt.prestart(); wl = Workloads.create(name, Size.FULL); }
    public static long round() { long t0 = System.nanoTime(); wl.run(rt); return System.nanoTime() - t0; }
}
