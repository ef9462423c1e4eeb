import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** ping_pong's shape (the suite's), async and CompletableFuture alternated in one JVM; ns per pair. */
public class PPC {
    static void async(AsyncRuntime rt, int pairs) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(pairs);
        rt.spawn(cx -> {
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                rt.spawn(Async.then(Async.ready(null), ignored -> {
                    AsyncChannel<Integer> toPonger = new AsyncChannel<>(1);
                    AsyncChannel<Integer> toPinger = new AsyncChannel<>(1);
                    rt.spawn(Async.then(toPonger.receive(), v -> toPinger.send(v + 1)));
                    return Async.then(toPonger.send(ping), sent -> Async.map(toPinger.receive(), pong -> {
                        if (remaining.decrementAndGet() == 0) done.complete(1L);
                        return null;
                    }));
                }));
            }
            return Poll.ready(null);
        });
        done.get(60, TimeUnit.SECONDS);
    }
    static void cf(ForkJoinPool pool, int pairs) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(pairs);
        CompletableFuture.runAsync(() -> {
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                CompletableFuture.runAsync(() -> {
                    CompletableFuture<Integer> toPonger = new CompletableFuture<>();
                    CompletableFuture<Integer> toPinger = new CompletableFuture<>();
                    toPonger.thenAcceptAsync(v -> toPinger.complete(v + 1), pool);
                    toPonger.complete(ping);
                    toPinger.thenAcceptAsync(pong -> { if (remaining.decrementAndGet() == 0) done.complete(1L); }, pool);
                }, pool);
            }
        }, pool);
        done.get(60, TimeUnit.SECONDS);
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]); int workers = Integer.parseInt(a[1]); int pairs = Integer.parseInt(a[2]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).name("p").build()) {
            ForkJoinPool pool = new ForkJoinPool(workers);
            double[] ta = new double[rounds], tc = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime(); async(rt, pairs); ta[r] = (System.nanoTime() - t0) / (double) pairs;
                t0 = System.nanoTime(); cf(pool, pairs); tc[r] = (System.nanoTime() - t0) / (double) pairs;
            }
            java.util.Arrays.sort(ta, rounds / 2, rounds); java.util.Arrays.sort(tc, rounds / 2, rounds);
            System.out.printf("ns/pair 2nd half: async min %.1f med %.1f | cf min %.1f med %.1f%n", ta[rounds/2], ta[rounds/2+rounds/4], tc[rounds/2], tc[rounds/2+rounds/4]);
            pool.shutdown();
        }
    }
}
