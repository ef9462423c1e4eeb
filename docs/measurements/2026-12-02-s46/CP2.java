import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
public class CP2 {
    public static void main(String[] a) throws Exception {
        int hops = Integer.parseInt(a[0]); int chains = Integer.parseInt(a[1]);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            for (int r = 0; r < 4; r++) {
                long before = pool.stats().unparks();
                AtomicInteger moves = new AtomicInteger();
                long t0 = System.nanoTime();
                for (int c = 0; c < chains; c++) {
                    CountDownLatch end = new CountDownLatch(1);
                    pool.execute(() -> hop(pool, null, hops, moves, end));
                    end.await();
                }
                System.out.printf("round %d: %.1f ms, unparks %d, moves %d%n", r, (System.nanoTime() - t0) / 1e6, pool.stats().unparks() - before, moves.get());
            }
        }
    }
    static void hop(WorkStealingPool pool, Thread previous, int left, AtomicInteger moves, CountDownLatch end) {
        Thread self = Thread.currentThread();
        if (previous != null && self != previous) moves.incrementAndGet();
        if (left == 0) end.countDown(); else pool.execute(() -> hop(pool, self, left - 1, moves, end));
    }
}
