import dev.spindle.bench.async.*;
import dev.spindle.bench.workload.Size;
import java.util.concurrent.ForkJoinPool;
/** The CompletableFuture side of a suite workload on a ForkJoinPool (asyncMode true), for in-JVM comparisons. */
public class WR {
    static ForkJoinPool pool; static AsyncWorkload wl;
    public static void init(int workers, String name) { pool = new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true); wl = AsyncWorkloads.create(name, Size.FULL); }
    public static long round() { long t0 = System.nanoTime(); wl.run(pool); return System.nanoTime() - t0; }
}
