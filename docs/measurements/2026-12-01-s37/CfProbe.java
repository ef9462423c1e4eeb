import dev.spindle.bench.async.*;
import dev.spindle.bench.workload.Size;
import java.util.concurrent.ForkJoinPool;
public class CfProbe {
    public static void main(String[] a) {
        ForkJoinPool pool = new ForkJoinPool(Integer.getInteger("w", 2), ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, Boolean.parseBoolean(a[2]));
        AsyncWorkload wl = AsyncWorkloads.create(a[0], Size.FULL);
        int rounds = Integer.parseInt(a[1]);
        for (int i = 0; i < rounds; i++) wl.run(pool);
        long st0 = pool.getStealCount(); long a0 = Alloc.all();
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) wl.run(pool);
        long t = System.nanoTime() - t0; long al = Alloc.all() - a0;
        double ops = (double) wl.operations() * rounds;
        System.out.printf("bytes/op %.1f ",  al / ((double) wl.operations() * rounds)); System.out.printf("CF %s async=%s: %.1f ns/op steals %.3f%n", a[0], a[2], t / ops, (pool.getStealCount() - st0) / ops);
        System.exit(0);
    }
}
