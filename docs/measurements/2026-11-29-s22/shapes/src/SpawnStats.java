import dev.spindle.async.*;
import dev.spindle.SchedulerStats;
import java.util.*;
import java.util.concurrent.*;

/** spawn_many as the bench writes it (await in order) and with Async.all: time and runtime stats per run. */
public class SpawnStats {
    static final int N = 10_000;

    static long inOrder(AsyncRuntime rt) throws Exception {
        JoinHandle<Long> parent = rt.spawn(new AsyncTask<Long>() {
            JoinHandle<Long>[] hs; int next; long sum;
            @SuppressWarnings("unchecked")
            public Poll<Long> poll(Context cx) {
                if (hs == null) { hs = new JoinHandle[N]; for (int i = 0; i < N; i++) { long v = i; hs[i] = rt.spawn(c -> Poll.ready(v)); } }
                while (next < N) { Poll<Long> p = hs[next].poll(cx); if (p.isPending()) return Poll.pending(); sum += p.value(); next++; }
                return Poll.ready(sum);
            }
        });
        return parent.get(60, TimeUnit.SECONDS);
    }

    static long all(AsyncRuntime rt) throws Exception {
        return rt.spawn(Async.then(Async.ready(null), x -> {
            List<JoinHandle<Long>> hs = new ArrayList<>(N);
            for (int i = 0; i < N; i++) { long v = i; hs.add(rt.spawn(c -> Poll.ready(v))); }
            return Async.map(Async.all(hs), l -> { long s = 0; for (long v : l) s += v; return s; });
        })).get(60, TimeUnit.SECONDS);
    }

    static long cf(ForkJoinPool pool) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            @SuppressWarnings("unchecked") CompletableFuture<Long>[] fs = new CompletableFuture[N];
            for (int i = 0; i < N; i++) { long v = i; fs[i] = CompletableFuture.supplyAsync(() -> v, pool); }
            return CompletableFuture.allOf(fs).thenApply(x -> { long s = 0; for (CompletableFuture<Long> f : fs) s += f.join(); return s; });
        }, pool).thenCompose(f -> f).get(60, TimeUnit.SECONDS);
    }

    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        String which = a.length > 1 ? a[1] : "order";
        ForkJoinPool pool = new ForkJoinPool(workers);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).build()) {
            for (int i = 0; i < 2000; i++) { if (which.equals("all")) all(rt); else inOrder(rt); cf(pool); }
            for (int r = 0; r < 10; r++) {
                SchedulerStats s0 = rt.stats();
                long t0 = System.nanoTime();
                if (which.equals("all")) all(rt); else inOrder(rt);
                long t = System.nanoTime() - t0;
                SchedulerStats s1 = rt.stats();
                long t1 = System.nanoTime(); cf(pool); long tc = System.nanoTime() - t1;
                System.out.printf("%s w%d %.3f ms (cf %.3f) polls %d steals %d parks %d unparks %d%n", which, workers, t / 1e6, tc / 1e6,
                    s1.polls() - s0.polls(), s1.steals() - s0.steals(), s1.parks() - s0.parks(), s1.unparks() - s0.unparks());
            }
        }
        System.exit(0);
    }
}
