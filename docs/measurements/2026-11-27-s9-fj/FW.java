import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One build's side of an in-JVM A/B of a fork/join suite workload, on a runtime of the given kind. */
public class FW {
    BenchRuntime rt; Workload wl;
    public FW(String kind, int workers, String name) { rt = Runtimes.create(RuntimeKind.valueOf(kind), workers); wl = Workloads.create(name, Size.FULL); }
    public long round() throws Exception { long t0 = System.nanoTime(); wl.run(rt); return System.nanoTime() - t0; }
}
