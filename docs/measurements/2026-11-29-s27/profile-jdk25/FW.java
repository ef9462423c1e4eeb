import dev.spindle.pool.ComputeTask;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

public class FW {
    static final class SF extends ComputeTask<Long> {
        final int n; SF(int n) { this.n = n; }
        @Override protected Long compute() {
            if (n < 2) return (long) n;
            SF a = new SF(n - 1), b = new SF(n - 2);
            a.fork(); b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }
    static final class FT extends RecursiveTask<Long> {
        final int n; FT(int n) { this.n = n; }
        @Override protected Long compute() {
            if (n < 2) return (long) n;
            FT a = new FT(n - 1), b = new FT(n - 2);
            a.fork(); b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }
    public static void main(String[] a) {
        String mode = a[0]; int workers = Integer.parseInt(a[1]); int n = Integer.parseInt(a[2]); int secs = Integer.parseInt(a[3]);
        long tasksPerRun = 0; { long x = 1, y = 1; for (int i = 2; i <= n; i++) { long t = x + y + 1; x = y; y = t; } tasksPerRun = y; }
        WorkStealingPool ws = mode.equals("ws") ? WorkStealingPool.builder().workers(workers).build() : null;
        ForkJoinPool fj = mode.equals("fjp") ? new ForkJoinPool(workers) : null;
        long start = System.nanoTime();
        for (int s = 1; s <= secs; s++) {
            long end = start + s * 1_000_000_000L; int runs = 0;
            long cpu0 = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class).getProcessCpuTime();
            while (System.nanoTime() < end) {
                if (ws != null) ws.invoke(new SF(n)); else fj.invoke(new FT(n));
                runs++;
            }
            long cpu1 = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class).getProcessCpuTime();
            System.out.printf("%s %dw second %d: %d runs, %.1f ns wall/task, %.1f ns cpu/task%n", mode, workers, s, runs,
                    1e9 / (runs * (double) tasksPerRun), (cpu1 - cpu0) / (runs * (double) tasksPerRun));
        }
        if (ws != null) ws.close(); else fj.shutdown();
    }
}
