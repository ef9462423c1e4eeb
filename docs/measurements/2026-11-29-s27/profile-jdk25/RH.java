import dev.spindle.SchedulerStats;
import dev.spindle.pool.ComputeTask;
import dev.spindle.pool.WorkStealingPool;

public class RH {
    static final class F extends ComputeTask<Long> {
        final int n; F(int n) { this.n = n; }
        @Override protected Long compute() {
            if (n < 2) return (long) n;
            F a = new F(n - 1), b = new F(n - 2);
            a.fork(); b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }
    public static void main(String[] a) {
        int n = Integer.parseInt(a[0]); int runs = Integer.parseInt(a[1]); int workers = Integer.parseInt(a[2]);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(workers).build()) {
            SchedulerStats prev = pool.stats();
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                pool.invoke(new F(n));
                long t1 = System.nanoTime();
                SchedulerStats s = pool.stats();
                if (r % (runs / 10) == 0 || r == runs - 1)
                    System.out.printf("run %d: %.1f ms completed=%d steals=%d runnerHelps=%d parks=%d unparks=%d spares=%d%n", r, (t1 - t0) / 1e6,
                        s.completed() - prev.completed(), s.steals() - prev.steals(), s.runnerHelps() - prev.runnerHelps(),
                        s.parks() - prev.parks(), s.unparks() - prev.unparks(), s.workers().size());
                prev = s;
            }
        }
    }
}
