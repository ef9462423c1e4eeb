import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Two 1-worker runtimes each running half of yield_many, against one 2-worker runtime running it all. */
public class Y3 {
    static final int YIELDS = 1000; static final boolean PAD = Boolean.getBoolean("pad"); static volatile Object sink;
    static CompletableFuture<Long> start(AsyncRuntime rt, int tasks) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(tasks);
        for (int t = 0; t < tasks; t++) { if (PAD) sink = new byte[112];
            rt.spawn(new AsyncTask<Void>() {
                int n;
                public Poll<Void> poll(Context cx) {
                    if (n == YIELDS) { if (remaining.decrementAndGet() == 0) done.complete(1L); return Poll.ready(null); }
                    n++; cx.waker().wake(); return Poll.pending();
                }
            });
        }
        return done;
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        double ops = 200.0 * YIELDS;
        try (AsyncRuntime r1 = AsyncRuntime.builder().workers(1).name("a").build();
             AsyncRuntime r2 = AsyncRuntime.builder().workers(1).name("b").build();
             AsyncRuntime r = AsyncRuntime.builder().workers(2).name("c").build()) {
            double[] ts = new double[rounds], tt = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                long t0 = System.nanoTime();
                CompletableFuture<Long> x = start(r1, 100), y = start(r2, 100);
                x.get(); y.get();
                ts[i] = (System.nanoTime() - t0) / ops;
                t0 = System.nanoTime();
                start(r, 200).get();
                tt[i] = (System.nanoTime() - t0) / ops;
            }
            java.util.Arrays.sort(ts, rounds / 2, rounds); java.util.Arrays.sort(tt, rounds / 2, rounds);
            System.out.printf("ns/yield: two 1-worker runtimes min %.1f med %.1f | one 2-worker runtime min %.1f med %.1f%n", ts[rounds/2], ts[rounds/2+rounds/4], tt[rounds/2], tt[rounds/2+rounds/4]);
        }
    }
}
