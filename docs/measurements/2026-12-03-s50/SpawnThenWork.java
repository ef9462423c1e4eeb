import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.*;
import java.util.function.BiConsumer;

/**
 * A task submitted from outside submits one child, then computes; the child computes as long.
 * Ideal: both in parallel (one work time an iteration); serial: two. Prints the time an
 * iteration and the child's start delay after its submission.
 *
 *   java -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp spindle.jar:. SpawnThenWork WORK_US ITERATIONS [variants]
 *
 * variants (default "execute"): any of execute, submit, spawn (how the child is submitted on
 * WorkStealingPool), sharing (WorkSharingPool's execute), comma-separated; FJP's execute runs beside each.
 */
public class SpawnThenWork {
    static volatile long sink;

    static void spin(long nanos) {
        long end = System.nanoTime() + nanos, x = 0;
        while (System.nanoTime() < end) { x++; }
        sink += x;
    }

    static void run(String name, ExecutorService pool, BiConsumer<ExecutorService, Runnable> submit, int iters,
                    long workNanos) throws Exception {
        long[] delays = new long[iters];
        long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            CountDownLatch done = new CountDownLatch(2);
            final int k = i;
            pool.execute(() -> {
                long spawned = System.nanoTime();
                submit.accept(pool, () -> { delays[k] = System.nanoTime() - spawned; spin(workNanos); done.countDown(); });
                spin(workNanos);
                done.countDown();
            });
            done.await();
        }
        double perIter = (System.nanoTime() - t0) / 1e3 / iters;
        java.util.Arrays.sort(delays);
        System.out.printf("%-16s per iteration %.0f us (ideal %.0f, serial %.0f); child start delay p50 %.0f us p90 %.0f us max %.0f us%n",
                name, perIter, workNanos / 1e3, 2 * workNanos / 1e3, delays[iters / 2] / 1e3, delays[iters * 9 / 10] / 1e3,
                delays[iters - 1] / 1e3);
    }

    public static void main(String[] a) throws Exception {
        long work = Long.parseLong(a.length > 0 ? a[0] : "1000") * 1000;
        int iters = Integer.parseInt(a.length > 1 ? a[1] : "1000");
        String[] variants = (a.length > 2 ? a[2] : "execute").split(",");
        WorkStealingPool s = WorkStealingPool.builder().workers(2).build();
        WorkSharingPool w = WorkSharingPool.builder().workers(2).build();
        ExecutorService f = new ForkJoinPool(2);
        for (int r = 0; r < 3; r++) {
            for (String v : variants) {
                switch (v) {
                    case "execute" -> run("spindle execute", s, ExecutorService::execute, iters, work);
                    case "submit" -> run("spindle submit", s, ExecutorService::submit, iters, work);
                    case "spawn" -> run("spindle spawn", s, (p, t) -> ((WorkStealingPool) p).spawn(() -> { t.run(); return null; }), iters, work);
                    case "sharing" -> run("sharing execute", w, ExecutorService::execute, iters, work);
                    default -> throw new IllegalArgumentException("unknown variant " + v);
                }
                run("fjp execute", f, ExecutorService::execute, iters, work);
            }
        }
        s.shutdown(); w.shutdown(); f.shutdown();
    }
}
