import java.util.concurrent.*;
public class CfPhase {
    static final int N = 10_000;
    public static void main(String[] a) throws Exception {
        int w = Integer.getInteger("w", 2);
        ForkJoinPool pool = new ForkJoinPool(w, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, Boolean.getBoolean("async"));
        int rounds = Integer.parseInt(a[0]);
        long[] loop = new long[rounds], total = new long[rounds];
        for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < rounds; r++) {
            long[] tl = new long[1];
            long t0 = System.nanoTime();
            CompletableFuture<Long> all = CompletableFuture.supplyAsync(() -> {
                long s = System.nanoTime();
                @SuppressWarnings("unchecked") CompletableFuture<Long>[] fs = new CompletableFuture[N];
                for (int i = 0; i < N; i++) { long v = i; fs[i] = CompletableFuture.supplyAsync(() -> v, pool); }
                tl[0] = System.nanoTime() - s;
                return CompletableFuture.allOf(fs).thenApply(x -> { long t = 0; for (CompletableFuture<Long> f : fs) t += f.join(); return t; });
            }, pool).thenCompose(f -> f);
            all.get();
            total[r] = System.nanoTime() - t0; loop[r] = tl[0];
        }
        java.util.Arrays.sort(loop); java.util.Arrays.sort(total);
        System.out.printf("CF async=%s w=%d: spawn loop p50 %.1f ns/task, total p50 %.1f ns/task%n", Boolean.getBoolean("async"), w, loop[rounds/2]/(double)N, total[rounds/2]/(double)N);
        System.exit(0);
    }
}
