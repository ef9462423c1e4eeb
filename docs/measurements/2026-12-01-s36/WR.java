import dev.spindle.async.*;
import dev.spindle.bench.async.*;
import dev.spindle.bench.workload.Size;
/** One build's side of an in-JVM A/B of a suite workload (the suite's own classes from that build). */
public class WR {
    static AsyncRuntime rt; static AsyncWorkload wl;
    public static void init(int workers, String name) { rt = AsyncRuntime.builder().workers(workers).name("r").build(); wl = AsyncWorkloads.create(name, Size.FULL); }
    public static long round() { long t0 = System.nanoTime(); wl.run(rt); return System.nanoTime() - t0; }
}
