import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One build's side of an in-JVM A/B of a fork/join suite workload on a Spindle pool (that build's suite classes). */
public class WR {
    static BenchRuntime rt; static Workload wl;
    public static void init(int workers, String name) { rt = Runtimes.create(RuntimeKind.SPINDLE, workers); wl = Workloads.create(name, Size.FULL); }
    public static long round() { long t0 = System.nanoTime(); wl.run(rt); return System.nanoTime() - t0; }
}
