import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class Chain {
    static AsyncTask<Void> link(AsyncRuntime rt, int n, int depth, CompletableFuture<Long> done) {
        return cx -> {
            if (n == depth) done.complete((long) n); else rt.spawn(link(rt, n + 1, depth, done));
            return Poll.ready(null);
        };
    }
    static void cfLink(ForkJoinPool pool, int n, int depth, CompletableFuture<Long> done) {
        if (n == depth) done.complete((long) n); else CompletableFuture.runAsync(() -> cfLink(pool, n + 1, depth, done), pool);
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]); String mode = a[1]; int workers = Integer.parseInt(a[2]);
        int depth = 100_000;
        AsyncRuntime rt = mode.equals("async") ? AsyncRuntime.builder().workers(workers).name("c").build() : null;
        ForkJoinPool pool = mode.equals("cf") ? new ForkJoinPool(workers) : null;
        double[] t = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            CompletableFuture<Long> done = new CompletableFuture<>();
            long t0 = System.nanoTime();
            if (rt != null) rt.spawn(link(rt, 1, depth, done)); else CompletableFuture.runAsync(() -> cfLink(pool, 1, depth, done), pool);
            done.get(60, TimeUnit.SECONDS);
            t[r] = (System.nanoTime() - t0) / (double) depth;
        }
        java.util.Arrays.sort(t, rounds / 2, rounds);
        double[] h = java.util.Arrays.copyOfRange(t, rounds/2, rounds); System.out.printf("%s w=%d ns/link 2nd half: min %.1f p25 %.1f med %.1f%n", mode, workers, h[0], h[h.length/4], h[h.length/2]);
        if (rt != null) rt.close(); else pool.shutdown();
    }
}
