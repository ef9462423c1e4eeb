import dev.spindle.SchedulerStats;
import dev.spindle.async.AsyncPolicy;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.bench.async.AsyncWorkload;
import dev.spindle.bench.async.AsyncWorkloads;
import dev.spindle.bench.workload.Size;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/**
 * Where an async suite workload's time goes on N workers: AsyncRuntime (WORK_STEALING, HYBRID)
 * and CompletableFuture on a ForkJoinPool, rounds alternated in one JVM. Per run: wall time, the
 * process's CPU time, and (async) the workers' counters summed: polls, steals, parks, unparks,
 * wake-ups; (FJP) steals. Medians over the rounds.
 *
 *   java -cp spindle.jar:. AsyncDiag WORKERS WORKLOAD ROUNDS RUNS_PER_ROUND
 */
public class AsyncDiag {
    static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time of every live thread, summed (thread clocks: nanosecond resolution). */
    static long cpu() {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) sum += t;
        }
        return sum;
    }

    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        AsyncWorkload w = AsyncWorkloads.create(a[1], Size.FULL);
        int rounds = Integer.parseInt(a[2]);
        int runs = Integer.parseInt(a[3]);
        AsyncRuntime ws = AsyncRuntime.builder().workers(n).policy(AsyncPolicy.WORK_STEALING).name("async-ws").build();
        AsyncRuntime hy = AsyncRuntime.builder().workers(n).policy(AsyncPolicy.HYBRID).name("async-hybrid").build();
        ForkJoinPool fjp = new ForkJoinPool(n);
        String[] names = {"async-ws", "async-hybrid", "cf-fjp"};
        double[][][] f = new double[3][8][rounds]; // wall us, cpu us, polls, steals, parks, unparks, wakeups, (fjp steals)
        for (int r = -3; r < rounds; r++) {
            for (int k = 0; k < 3; k++) {
                int i = Math.floorMod(r + k, 3);
                long[] before = counters(i == 0 ? ws : i == 1 ? hy : null, fjp);
                long c0 = cpu(), t0 = System.nanoTime();
                for (int j = 0; j < runs; j++) {
                    if (i == 2) w.run(fjp); else w.run(i == 0 ? ws : hy);
                }
                long t1 = System.nanoTime(), c1 = cpu();
                long[] after = counters(i == 0 ? ws : i == 1 ? hy : null, fjp);
                if (r < 0) continue;
                f[i][0][r] = (t1 - t0) / 1e3 / runs;
                f[i][1][r] = (c1 - c0) / 1e3 / runs;
                for (int m = 0; m < 6; m++) f[i][2 + m][r] = (after[m] - before[m]) / (double) runs;
            }
        }
        System.out.printf("%s, %d workers, %d rounds x %d runs, medians per run, Java %s, %d cpus%n", a[1], n, rounds, runs,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        System.out.printf("%-13s %9s %9s %7s %9s %9s %9s %9s %9s%n", "runtime", "wall us", "cpu us", "cores", "polls", "steals",
                "parks", "unparks", "wakeups");
        for (int i = 0; i < 3; i++) {
            double wall = med(f[i][0]), cpu = med(f[i][1]);
            System.out.printf("%-13s %9.1f %9.1f %7.2f %9.0f %9.0f %9.0f %9.0f %9.0f%n", names[i], wall, cpu, cpu / wall,
                    med(f[i][2]), med(f[i][3]), med(f[i][4]), med(f[i][5]), med(f[i][6]));
        }
        System.exit(0);
    }

    static long[] counters(AsyncRuntime rt, ForkJoinPool fjp) {
        long[] c = new long[6];
        if (rt == null) {
            c[1] = fjp.getStealCount();
            return c;
        }
        for (SchedulerStats.WorkerStats s : rt.stats().workers()) {
            c[0] += s.polls(); c[1] += s.steals(); c[2] += s.parks(); c[3] += s.unparks(); c[4] += s.wakeups();
        }
        return c;
    }

    static double med(double[] x) {
        double[] y = x.clone();
        Arrays.sort(y);
        return y[y.length / 2];
    }
}
