/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.SchedulerStats;
import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.workload.ForkJoinWorkload;
import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.Workload;
import dev.spindle.bench.workload.Workloads;
import dev.spindle.pool.WorkStealingPool;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Why a fork/join workload runs as fast as it does: the time of each pool next to what the
 * Spindle pool did meanwhile (threads started, that is spare workers; steals; parks per run).
 *
 * <p>Pools: {@code fjp} and {@code fjp-async} (ForkJoinPool LIFO and FIFO), {@code spindle}
 * (the default {@link WorkStealingPool}) and {@code spindle-nospare} (no spare workers, so
 * joins progress only by helping). All stay open for the whole run and take turns, round by
 * round, in a rotating order. Results are checked as in the quick harness. Each line also gives
 * the process's CPU time per run and the cores it kept busy on average (CPU time over wall
 * time), which tell per-task cost (as many busy cores as workers, yet slower) from idle
 * workers (fewer busy cores).
 *
 * <pre>{@code
 * java -cp spindle-cli/target/spindle.jar dev.spindle.bench.quick.ForkJoinDiagnostics 16 6 fib,nqueens,uts
 * }</pre>
 */
public final class ForkJoinDiagnostics {

    /** The pools compared, in report order. */
    public static final List<String> POOLS = List.of("fjp", "fjp-async", "spindle", "spindle-nospare");

    private static final int WARMUP_ROUNDS = 3;

    private ForkJoinDiagnostics() {
    }

    /** {@code WORKERS ROUNDS WORKLOAD[,WORKLOAD...]}: prints one line per workload and pool. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: ForkJoinDiagnostics WORKERS ROUNDS WORKLOAD[,WORKLOAD...]");
            System.exit(2);
        }
        run(Integer.parseInt(args[0]), Integer.parseInt(args[1]), List.of(args[2].split(",")), Size.FULL, System.out);
    }

    /**
     * Runs each fork/join workload on every pool for {@code rounds} measured rounds (after 3
     * warm-up rounds) and prints a line per pool.
     *
     * @throws IllegalArgumentException if {@code workers} or {@code rounds} is below 1, or a
     *     workload is unknown or not a fork/join workload
     */
    public static void run(int workers, int rounds, List<String> workloads, Size size, PrintStream out)
            throws InterruptedException {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1, was " + rounds);
        }
        List<ForkJoinWorkload> ws = new ArrayList<>();
        for (String name : workloads) {
            Workload w = Workloads.create(name.trim(), size);
            if (!(w instanceof ForkJoinWorkload fw)) {
                throw new IllegalArgumentException(name + " is not a fork/join workload");
            }
            ws.add(fw);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (ForkJoinWorkload w : ws) {
            List<ExecutorService> pools = new ArrayList<>();
            for (String p : POOLS) {
                pools.add(create(p, workers));
            }
            try {
                int reps = repetitions(w, pools.get(0), workers);
                int n = POOLS.size();
                List<List<Double>> times = new ArrayList<>();
                long[][] counts = new long[n][5];   // threads started, steals, parks, unparks, CPU ns
                for (int i = 0; i < n; i++) {
                    times.add(new ArrayList<>());
                }
                for (int round = -WARMUP_ROUNDS; round < rounds; round++) {
                    for (int k = 0; k < n; k++) {
                        int i = (k + Math.max(round, 0)) % n;
                        ExecutorService pool = pools.get(i);
                        BenchRuntime rt = view(pool, workers);
                        long started = threads.getTotalStartedThreadCount();
                        long[] before = spindleCounts(pool);
                        long cpu0 = ProcessCpu.nanos();
                        long t0 = System.nanoTime();
                        for (int r = 0; r < reps; r++) {
                            w.run(rt);
                        }
                        double ms = (System.nanoTime() - t0) / 1e6 / reps;
                        long cpu = ProcessCpu.nanos() - cpu0;
                        long[] after = spindleCounts(pool);
                        if (round >= 0) {
                            times.get(i).add(ms);
                            counts[i][0] += threads.getTotalStartedThreadCount() - started;
                            counts[i][1] += after[0] - before[0];
                            counts[i][2] += after[1] - before[1];
                            counts[i][3] += after[2] - before[2];
                            counts[i][4] += cpu;
                        }
                    }
                }
                double bestFjp = Math.min(Stats.of(times.get(0)).median(), Stats.of(times.get(1)).median());
                for (int i = 0; i < n; i++) {
                    double median = Stats.of(times.get(i)).median();
                    double runs = rounds * (double) reps;
                    double cpuMsPerRun = counts[i][4] / 1e6 / runs;
                    double wallMsPerRun = times.get(i).stream().mapToDouble(Double::doubleValue).sum() / rounds;
                    out.printf(Locale.ROOT,
                            "%-10s workers=%-3d %-16s %9.3f ms  vs best FJP %.2f  threads started/round %5.1f"
                                    + "  steals/run %6.0f  parks/run %5.0f  unparks/run %5.0f"
                                    + "  cpu/run %8.3f ms  busy cores %5.2f%n",
                            w.name(), workers, POOLS.get(i), median, bestFjp / median,
                            counts[i][0] / (double) rounds, counts[i][1] / runs, counts[i][2] / runs,
                            counts[i][3] / runs, cpuMsPerRun, cpuMsPerRun / wallMsPerRun);
                }
            } finally {
                for (ExecutorService p : pools) {
                    p.shutdown();
                    p.awaitTermination(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** Runs per sample: enough for about 25 ms on the first pool, measured once. */
    private static int repetitions(ForkJoinWorkload w, ExecutorService pool, int workers) {
        BenchRuntime rt = view(pool, workers);
        w.run(rt);
        long t0 = System.nanoTime();
        w.run(rt);
        double ms = Math.max((System.nanoTime() - t0) / 1e6, 1e-3);
        return (int) Math.max(1, Math.min(1000, Math.ceil(QuickHarness.TARGET_SAMPLE_MS / ms)));
    }

    private static ExecutorService create(String pool, int workers) {
        switch (pool) {
            case "fjp":
                return new ForkJoinPool(workers);
            case "fjp-async":
                return new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
            case "spindle":
                return WorkStealingPool.builder().workers(workers).name("diag-spindle").build();
            case "spindle-nospare":
                return WorkStealingPool.builder().workers(workers).maxSpareWorkers(0).name("diag-nospare").build();
            default:
                throw new IllegalArgumentException("unknown pool " + pool + "; valid: " + POOLS);
        }
    }

    /** Steals, parks and unparks so far, summed over the Spindle pool's workers; zeros for others. */
    private static long[] spindleCounts(ExecutorService pool) {
        if (!(pool instanceof WorkStealingPool s)) {
            return new long[3];
        }
        SchedulerStats stats = s.stats();
        return new long[] {stats.steals(), stats.parks(), stats.unparks()};
    }

    private static BenchRuntime view(ExecutorService pool, int workers) {
        return new PoolView(pool, workers);
    }

    /** A pool of this run seen as a {@link BenchRuntime}; the run, not the view, closes it. */
    private record PoolView(ExecutorService pool, int workers) implements BenchRuntime {

        @Override
        public WorkStealingPool spindle() {
            return (WorkStealingPool) pool;
        }

        @Override
        public ForkJoinPool forkJoinPool() {
            return (ForkJoinPool) pool;
        }

        @Override
        public RuntimeKind kind() {
            return pool instanceof WorkStealingPool ? RuntimeKind.SPINDLE : RuntimeKind.FJP;
        }

        @Override
        public void execute(Runnable task) {
            pool.execute(task);
        }

        /** Not needed here: no idle-CPU probe runs on these pools. */
        @Override
        public boolean ownsThread(Thread thread) {
            throw new UnsupportedOperationException("ForkJoinDiagnostics does not measure CPU per thread");
        }

        /** The warm-up rounds start the workers. */
        @Override
        public void prestart() {
        }

        @Override
        public void close() {
            pool.shutdown();
        }
    }
}
