import dev.spindle.pool.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class YieldProf {
    public static final class Y implements Runnable {
        final Executor ex; final int yields; final AtomicInteger remaining; final CountDownLatch done; int step;
        public Y(Executor ex, int yields, AtomicInteger rem, CountDownLatch d) { this.ex = ex; this.yields = yields; remaining = rem; done = d; }
        public void run() {
            if (++step < yields) { ex.execute(this); return; }
            if (remaining.decrementAndGet() == 0) done.countDown();
        }
    }
    public static void main(String[] a) throws Exception {
        String mode = a[0]; int secs = Integer.parseInt(a[1]);
        int workers = a.length > 2 ? Integer.parseInt(a[2]) : 2;
        Executor ex = mode.equals("fjp") ? new ForkJoinPool(workers) : WorkStealingPool.builder().workers(workers).build();
        long end = System.nanoTime() + secs * 1_000_000_000L;
        java.util.List<Double> times = new java.util.ArrayList<>();
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            AtomicInteger rem = new AtomicInteger(200); CountDownLatch d = new CountDownLatch(1);
            for (int i = 0; i < 200; i++) ex.execute(new Y(ex, 1000, rem, d));
            d.await();
            times.add((System.nanoTime() - t0) / 1e6);
        }
        java.util.List<Double> tail = times.subList(times.size() / 2, times.size());
        java.util.Collections.sort(tail);
        System.out.printf("%s runs=%d median(2nd half)=%.3f ms%n", mode, times.size(), tail.get(tail.size() / 2));
        System.exit(0);
    }
}
