import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
/** spawn_many without the handles: children count down; Spindle (arg spindle) or CompletableFuture.runAsync (cf / cfa). */
public class SpawnCount {
    static final int N = 10_000;
    public static void main(String[] a) throws Exception {
        int w = Integer.getInteger("w", 2); int rounds = Integer.parseInt(a[1]); String mode = a[0];
        AsyncRuntime rt = mode.equals("spindle") ? AsyncRuntime.builder().workers(w).name("r").build() : null;
        ForkJoinPool pool = rt == null ? new ForkJoinPool(w, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, mode.equals("cfa")) : null;
        long[] loop = new long[rounds], total = new long[rounds];
        long cpu0 = 0, st0 = 0, pk0 = 0;
        for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) { cpu0 = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(); st0 = rt != null ? rt.stats().steals() : pool.getStealCount(); pk0 = rt != null ? rt.stats().parks() : 0; }
        for (int r = 0; r < rounds; r++) {
            long[] tl = new long[1];
            AtomicInteger left = new AtomicInteger(N);
            CompletableFuture<Void> done = new CompletableFuture<>();
            long t0 = System.nanoTime();
            if (rt != null) {
                rt.spawn(cx -> { long s = System.nanoTime();
                    for (int i = 0; i < N; i++) rt.spawn(c -> { if (left.decrementAndGet() == 0) done.complete(null); return Poll.ready(null); });
                    tl[0] = System.nanoTime() - s; return Poll.ready(null); });
            } else {
                pool.execute(() -> { long s = System.nanoTime();
                    for (int i = 0; i < N; i++) CompletableFuture.runAsync(() -> { if (left.decrementAndGet() == 0) done.complete(null); }, pool);
                    tl[0] = System.nanoTime() - s; });
            }
            done.get();
            total[r] = System.nanoTime() - t0; loop[r] = tl[0];
        }}
        double cpu = (((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() - cpu0) / ((double) rounds * N);
        double pk = rt != null ? (rt.stats().parks() - pk0) / (double) rounds : -1; double st = ((rt != null ? rt.stats().steals() : pool.getStealCount()) - st0) / ((double) rounds * N);
        java.util.Arrays.sort(loop); java.util.Arrays.sort(total);
        System.out.printf("%s w=%d: spawn loop p50 %.1f ns/task, total p50 %.1f ns/task, cpu %.1f ns/task, steals %.2f/task, parks %.2f/round%n", mode, w, loop[rounds/2]/(double)N, total[rounds/2]/(double)N, cpu, st, pk);
        System.exit(0);
    }
}
