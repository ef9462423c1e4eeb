import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

public class Fifo {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        for (int n : new int[] {5_000, 20_000, 80_000}) {
            for (int rep = 0; rep < 3; rep++) {
                try (WorkStealingPool p = WorkStealingPool.builder().workers(workers).build()) {
                    long t0 = System.nanoTime();
                    long s = p.invoke(() -> {
                        List<Task<Integer>> ts = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) { int k = i; ts.add(p.spawn(() -> k & 7)); }
                        long sum = 0;
                        for (Task<Integer> t : ts) sum += t.join();
                        return sum;
                    });
                    long t1 = System.nanoTime();
                    ForkJoinPool f = new ForkJoinPool(workers);
                    long f0 = System.nanoTime();
                    long fs = f.invoke(ForkJoinTask.adapt(() -> {
                        List<ForkJoinTask<Integer>> ts = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) { int k = i; ts.add(ForkJoinTask.adapt(() -> k & 7).fork()); }
                        long sum = 0;
                        for (ForkJoinTask<Integer> t : ts) sum += t.join();
                        return sum;
                    }));
                    long f1 = System.nanoTime();
                    f.shutdown();
                    System.out.printf("workers %d n %6d  spindle %8.2f ms  fjp %8.2f ms  (%d %d)%n", workers, n, (t1 - t0) / 1e6, (f1 - f0) / 1e6, s, fs);
                }
            }
        }
    }
}
