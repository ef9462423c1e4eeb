import dev.spindle.Task;
import dev.spindle.pool.*;
import java.util.concurrent.*;

public class FibProf {
    static long fibS(WorkStealingPool pool, int n) {
        if (n < 2) return n;
        Task<Long> a = pool.spawn(() -> fibS(pool, n - 1));
        Task<Long> b = pool.spawn(() -> fibS(pool, n - 2));
        long rb = b.join();
        return a.join() + rb;
    }
    public static final class CF extends ComputeTask<Long> {
        final int n; public CF(int n) { this.n = n; }
        protected Long compute() {
            if (n < 2) return (long) n;
            CF a = new CF(n - 1), b = new CF(n - 2);
            a.fork(); b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }
    static final class Root extends ComputeTask<Long> {
        final WorkStealingPool pool; final int n; Root(WorkStealingPool p, int n) { pool = p; this.n = n; }
        protected Long compute() { return fibS(pool, n); }
    }
    public static final class FT extends RecursiveTask<Long> {
        final int n; public FT(int n) { this.n = n; }
        protected Long compute() {
            if (n < 2) return (long) n;
            FT a = new FT(n - 1), b = new FT(n - 2);
            a.fork(); b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }
    public static void main(String[] a) throws Exception {
        String mode = a[0]; int n = Integer.parseInt(a[1]); int secs = Integer.parseInt(a[2]);
        int workers = a.length > 3 ? Integer.parseInt(a[3]) : 2;
        WorkStealingPool pool = WorkStealingPool.builder().workers(workers).build();
        ForkJoinPool fjp = new ForkJoinPool(workers);
        long end = System.nanoTime() + secs * 1_000_000_000L;
        java.util.List<Double> times = new java.util.ArrayList<>();
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            long r;
            switch (mode) {
                case "spawn": r = pool.invoke(() -> fibS(pool, n)); break;
                case "spawn2": r = pool.invoke(new Root(pool, n)); break;
                case "compute": r = pool.invoke(new CF(n)); break;
                default: r = fjp.invoke(new FT(n)); break;
            }
            times.add((System.nanoTime() - t0) / 1e6);
            if (r < 0) throw new AssertionError();
        }
        java.util.List<Double> tail = times.subList(times.size() / 2, times.size());
        java.util.Collections.sort(tail);
        System.out.printf("%s n=%d runs=%d median(2nd half)=%.2f ms%n", mode, n, times.size(), tail.get(tail.size() / 2));
        pool.close(); fjp.shutdown();
    }
}
