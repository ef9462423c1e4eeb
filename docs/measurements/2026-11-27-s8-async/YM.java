import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** yield_many's shape: tasks x yields self-wakes; ns per yield, async vs CompletableFuture, alternated in one JVM. */
public class YM {
    static final int TASKS = 200, YIELDS = 1000;
    static long async(AsyncRuntime rt) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(TASKS);
        for (int t = 0; t < TASKS; t++) {
            rt.spawn(new AsyncTask<Void>() {
                int n;
                public Poll<Void> poll(Context cx) {
                    if (n == YIELDS) { if (remaining.decrementAndGet() == 0) done.complete(1L); return Poll.ready(null); }
                    n++; cx.waker().wake(); return Poll.pending();
                }
            });
        }
        return done.get(60, TimeUnit.SECONDS);
    }
    static long cf(ForkJoinPool pool) throws Exception {
        @SuppressWarnings("unchecked") CompletableFuture<Integer>[] ends = new CompletableFuture[TASKS];
        for (int t = 0; t < TASKS; t++) {
            ends[t] = CompletableFuture.supplyAsync(() -> {
                CompletableFuture<Integer> f = CompletableFuture.completedFuture(0);
                for (int i = 0; i < YIELDS; i++) f = f.thenApplyAsync(x -> x + 1, pool);
                return f;
            }, pool).thenCompose(f -> f);
        }
        CompletableFuture.allOf(ends).get(60, TimeUnit.SECONDS);
        return 1;
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]); int workers = Integer.parseInt(a[1]);
        String policy = a.length > 2 ? a[2] : "WORK_STEALING";
        double ops = (double) TASKS * YIELDS;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.valueOf(policy)).name("y").build()) {
            ForkJoinPool pool = new ForkJoinPool(workers);
            double[] ta = new double[rounds], tc = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime(); async(rt); ta[r] = (System.nanoTime() - t0) / ops;
                if (System.getProperty("nocf") == null) { t0 = System.nanoTime(); cf(pool); tc[r] = (System.nanoTime() - t0) / ops; }
            }
            java.util.Arrays.sort(ta, rounds / 2, rounds); java.util.Arrays.sort(tc, rounds / 2, rounds);
            System.out.printf("ns/yield 2nd half: async min %.1f med %.1f | cf min %.1f med %.1f | stats %s%n", ta[rounds/2], ta[rounds/2+rounds/4], tc[rounds/2], tc[rounds/2+rounds/4], rt.stats());
            pool.shutdown();
        }
    }
}
