import dev.spindle.pool.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.lang.management.*;

public class SML {
    static long run(Executor ex, int tasks) throws Exception {
        AtomicLong sum = new AtomicLong(); AtomicInteger remaining = new AtomicInteger(tasks); CountDownLatch done = new CountDownLatch(1);
        ex.execute(() -> { for (int i = 0; i < tasks; i++) { long v = i; ex.execute(() -> { sum.addAndGet(v); if (remaining.decrementAndGet() == 0) done.countDown(); }); } });
        done.await(); return sum.get();
    }
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); int tasks = 10_000; int reps = Integer.parseInt(a[1]); int inner = 20;
        String[] caps = a[2].split(",");
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int n = caps.length + 1;
        Executor[] ex = new Executor[n]; String[] names = new String[n];
        for (int i = 0; i < caps.length; i++) { ex[i] = WorkStealingPool.builder().workers(workers).localQueueCapacity(Integer.parseInt(caps[i])).build(); names[i] = "spindle-cap" + caps[i]; }
        ex[n-1] = new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true); names[n-1] = "fjp-async";
        double[][] wall = new double[n][reps], cpu = new double[n][reps];
        for (int r = -5; r < reps; r++) for (int k = 0; k < n; k++) {
            long c0 = os.getProcessCpuTime(), t0 = System.nanoTime();
            for (int j = 0; j < inner; j++) if (run(ex[k], tasks) != (long) tasks * (tasks - 1) / 2) throw new AssertionError();
            long c1 = os.getProcessCpuTime(), t1 = System.nanoTime();
            if (r >= 0) { wall[k][r] = (t1 - t0) / (double) (tasks * inner); cpu[k][r] = (c1 - c0) / (double) (tasks * inner); }
        }
        for (int k = 0; k < n; k++) { java.util.Arrays.sort(wall[k]); java.util.Arrays.sort(cpu[k]); System.out.printf("%-16s wall ns/task median %.1f  cpu ns/task median %.1f%n", names[k], wall[k][reps/2], cpu[k][reps/2]); }
        for (int k = 0; k < caps.length; k++) System.out.println(((WorkStealingPool) ex[k]).stats());
        System.exit(0);
    }
}
