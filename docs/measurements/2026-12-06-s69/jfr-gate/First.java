import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.*;
public class First {
    public static void main(String[] a) throws Exception {
        long t0 = System.nanoTime();
        ExecutorService ex = a[0].equals("fjp") ? new ForkJoinPool(2) : WorkStealingPool.builder().workers(2).build();
        long t1 = System.nanoTime();
        ex.submit(() -> 1).get();
        long t2 = System.nanoTime();
        ex.submit(() -> 1).get();
        long t3 = System.nanoTime();
        System.out.printf("%s build %.1f ms, first task %.1f ms, second %.2f ms%n", a[0], (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6);
        ex.shutdown();
    }
}
