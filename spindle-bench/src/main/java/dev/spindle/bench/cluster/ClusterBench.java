/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import dev.spindle.bench.quick.Stats;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.LocalCluster;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Makespan of the cluster's stealing policy on three graphs, each with stealing on and off,
 * against the lower bound {@code max(total work / total threads, critical path)}.
 *
 * <pre>
 * java -cp spindle-cli/target/spindle.jar dev.spindle.bench.cluster.ClusterBench [rounds]
 * </pre>
 *
 * <ul>
 *   <li>{@code good}: 160 tasks of 40 ms on 100 bytes, all placed on worker 0 (where stealing helps);
 *   <li>{@code bad}: 100 tasks of 2 ms on a 200 MB input held by worker 0 at 100 MB/s (where it
 *       must not steal);
 *   <li>{@code tree}: a tree reduction of 256 leaves, 5 ms per task.
 * </ul>
 *
 * <p>4 workers of 2 threads, 1 ms latency, balance every 20 ms. Sleeps stand in for compute, so the
 * figures do not depend on the machine's cores. Each cell is the median of {@code rounds} runs;
 * every run checks its results.
 */
public final class ClusterBench {

    static final int WORKERS = 4;
    static final int THREADS = 2;

    private ClusterBench() {
    }

    interface Factory {
        ClusterWorkloads.Prepared prepare(LocalCluster cluster, String tag) throws Exception;
    }

    /** One measured cell. */
    record Result(String workload, boolean stealing, double seconds, double bound, long steals) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1, was " + rounds);
        }
        PrintStream out = System.out;
        out.printf(Locale.ROOT, "cluster makespan: %d workers x %d threads, median of %d, JDK %s, %d cores%n",
                WORKERS, THREADS, rounds, Runtime.version(), Runtime.getRuntime().availableProcessors());
        out.printf(Locale.ROOT, "%-6s %-9s %11s %10s %9s %9s %7s%n",
                "graph", "stealing", "makespan", "bound", "/bound", "/off", "steals");
        run(out, "good", rounds, (c, t) -> ClusterWorkloads.skewedSlow(c.client(), t, 160, 40));
        run(out, "bad", rounds, (c, t) -> ClusterWorkloads.largeDataFast(c.client(), t, 100, 2, 200_000_000L));
        run(out, "tree", rounds, (c, t) -> ClusterWorkloads.treeReduction(c.client(), t, 256, 5));
    }

    static List<Result> run(PrintStream out, String name, int rounds, Factory factory) throws Exception {
        List<Result> rows = new ArrayList<>();
        double off = 0;
        for (boolean stealing : new boolean[] {false, true}) {
            double[] times = new double[rounds];
            double bound = 0;
            long steals = 0;
            for (int r = 0; r < rounds; r++) {
                try (LocalCluster cluster = LocalCluster.builder().workers(WORKERS).threadsPerWorker(THREADS)
                        .bandwidth(100e6).latency(Duration.ofMillis(1))
                        .stealing(stealing).balanceInterval(Duration.ofMillis(20)).build()) {
                    ClusterWorkloads.Prepared p = factory.prepare(cluster, name + r + "-");
                    bound = Math.max(p.work() / (WORKERS * THREADS), p.criticalPath());
                    long t0 = System.nanoTime();
                    List<? extends ClusterFuture<?>> fs = p.submit();
                    for (ClusterFuture<?> f : fs) {
                        f.get();
                    }
                    times[r] = (System.nanoTime() - t0) / 1e9;
                    p.check();
                    ClusterStats stats = cluster.stats();
                    steals += stats.stealsConfirmed();
                }
            }
            double median = median(times);
            if (!stealing) {
                off = median;
            }
            Result row = new Result(name, stealing, median, bound, steals / rounds);
            rows.add(row);
            out.printf(Locale.ROOT, "%-6s %-9s %9.1fms %8.1fms %8.2fx %8.2fx %7d%n", name, stealing ? "on" : "off",
                    median * 1e3, bound * 1e3, median / bound, median / off, row.steals());
        }
        return rows;
    }

    /** The median of {@code values}: the middle one, or the mean of the middle two of an even count. */
    static double median(double[] values) {
        return Stats.of(Arrays.stream(values).boxed().toList()).median();
    }
}
