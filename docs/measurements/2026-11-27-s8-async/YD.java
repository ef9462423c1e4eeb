import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Where a 2-worker yield_many round goes: finish-time quantiles and per-thread poll counts. */
public class YD {
    static final int TASKS = 200, YIELDS = 1000;
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("y").build()) {
            for (int r = 0; r < rounds; r++) {
                long[] fin = new long[TASKS];
                AtomicInteger idx = new AtomicInteger();
                CompletableFuture<Long> done = new CompletableFuture<>();
                AtomicInteger remaining = new AtomicInteger(TASKS);
                long[] p0 = new long[1], p1 = new long[1];
                long t0 = System.nanoTime();
                for (int t = 0; t < TASKS; t++) {
                    rt.spawn(new AsyncTask<Void>() {
                        int n;
                        public Poll<Void> poll(Context cx) {
                            
                            if (n == YIELDS) { fin[idx.getAndIncrement()] = System.nanoTime(); if (remaining.decrementAndGet() == 0) done.complete(1L); return Poll.ready(null); }
                            n++; cx.waker().wake(); return Poll.pending();
                        }
                    });
                }
                done.get(60, TimeUnit.SECONDS);
                long end = System.nanoTime();
                java.util.Arrays.sort(fin);
                if (r >= rounds - 12) System.out.printf("round %.2f ms: first done %.2f, 50%% %.2f, 90%% %.2f, last %.2f; polls by w0 %d w1 %d%n",
                    (end - t0) / 1e6, (fin[0] - t0) / 1e6, (fin[TASKS/2] - t0) / 1e6, (fin[TASKS*9/10] - t0) / 1e6, (fin[TASKS-1] - t0) / 1e6, p0[0], p1[0]);
            }
            System.out.println(Thread.currentThread().getName());
        }
    }
}
