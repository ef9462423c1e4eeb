import dev.spindle.Task;
import dev.spindle.pool.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class Mixed {
    public static void main(String[] a) throws Exception {
        String mode = a[0]; int secs = Integer.parseInt(a[1]);
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        ForkJoinPool fjp = new ForkJoinPool(2);
        Executor ex = mode.equals("fjp") ? fjp : pool;
        // pollute: fib with both APIs on both pools
        long end0 = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < end0) {
            pool.invoke(() -> FibProf.fibS(pool, 20));
            pool.invoke(new FibProf.CF(20));
            fjp.invoke(new FibProf.FT(20));
        }
        long end = System.nanoTime() + secs * 1_000_000_000L;
        java.util.List<Double> times = new java.util.ArrayList<>();
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            AtomicInteger rem = new AtomicInteger(200); CountDownLatch d = new CountDownLatch(1);
            for (int i = 0; i < 200; i++) ex.execute(new YieldProf.Y(ex, 1000, rem, d));
            d.await();
            times.add((System.nanoTime() - t0) / 1e6);
        }
        java.util.List<Double> tail = times.subList(times.size() / 2, times.size());
        java.util.Collections.sort(tail);
        System.out.printf("%s after fib runs=%d median(2nd half)=%.3f ms%n", mode, times.size(), tail.get(tail.size() / 2));
        System.exit(0);
    }
}
