/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.cluster.ClusterTarget;
import dev.spindle.bench.cluster.ClusterWorkloads;
import dev.spindle.bench.cluster.TcpBytes;
import dev.spindle.cluster.ClusterFuture;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The quick harness for the cluster ({@code spindle bench cluster}): the graph shapes of
 * {@link ClusterWorkloads#SHAPES} on each selected configuration ({@link ClusterTarget#CONFIGS}),
 * the Spindle side of the comparison with Dask ({@code spindle-bench/dask/dask_bench.py} runs the
 * same shapes at the same sizes and prints the same JSON; {@code spindle-bench/dask/ratios.py}
 * divides one by the other).
 *
 * <p>Each configuration starts one cluster that serves every round (as the Dask script does);
 * each round runs every shape once, with keys of its own. A run is timed from the first
 * submission until every future it waits for is done, then its results are checked, so a wrong
 * answer fails the run, and its futures are released. Around each run the harness reads the
 * bytes moved between workers and the steals (where the target counts them) and the TCP bytes
 * the worker processes sent ({@link TcpBytes}); the report gives, per shape, the median over the
 * measured rounds of each.
 */
public final class ClusterHarness {

    public static final int DEFAULT_ROUNDS = 3;
    public static final int DEFAULT_WARMUP_ROUNDS = 1;
    /** No run may take longer than this. */
    static final long RUN_TIMEOUT_SECONDS = 600;

    /**
     * Everything a run can be told (see {@link RunOptions}): the workloads are the shapes, the
     * runtimes the configurations. {@link RunOptions#workers} is not used: a cluster is sized by
     * {@link #inProcessWorkers}, {@link #processWorkers} and {@link #threads}.
     */
    public static final class Options extends RunOptions<Options> {
        int threads = 2;
        int inProcessWorkers = 4;
        int processWorkers = 3;

        public Options() {
            super(ClusterWorkloads.SHAPES, ClusterTarget.CONFIGS, "cluster configuration", DEFAULT_ROUNDS,
                    DEFAULT_WARMUP_ROUNDS);
        }

        /** Threads per worker (default 2). */
        public Options threads(int n) {
            this.threads = between("threads per worker", n, 1, 64);
            return this;
        }

        /** Workers of the in-process cluster (default 4). */
        public Options inProcessWorkers(int n) {
            this.inProcessWorkers = between("in-process workers", n, 1, 64);
            return this;
        }

        /** Worker JVMs of the multi-process cluster (default 3). */
        public Options processWorkers(int n) {
            this.processWorkers = between("worker processes", n, 1, 16);
            return this;
        }

        private static int between(String what, int n, int min, int max) {
            if (n < min || n > max) {
                throw new IllegalArgumentException(what + " must be between " + min + " and " + max + ", was " + n);
            }
            return n;
        }
    }

    private final Options o;

    public ClusterHarness(Options options) {
        this.o = options;
    }

    /** Runs everything selected and returns the report. */
    public ClusterReport run() throws Exception {
        long t0 = System.nanoTime();
        Progress progress = o.progress;
        progress.start(o.runtimes.size() * (o.warmupRounds + o.rounds) * o.workloads.size());
        List<ClusterReport.Row> rows = new ArrayList<>();
        for (String config : o.runtimes) {
            progress.phase("starting " + config);
            int workers = config.equals("inprocess") ? o.inProcessWorkers : o.processWorkers;
            try (ClusterTarget target = ClusterTarget.start(config, workers, o.threads)) {
                Map<String, List<Sample>> samples = new LinkedHashMap<>();
                Map<String, ClusterWorkloads.Prepared> graphs = new LinkedHashMap<>();
                for (int round = 0; round < o.warmupRounds + o.rounds; round++) {
                    boolean warm = round < o.warmupRounds;
                    progress.phase(config + ": " + (warm ? "warm-up round " + (round + 1) + "/" + o.warmupRounds
                            : "round " + (round - o.warmupRounds + 1) + "/" + o.rounds));
                    for (String shape : o.workloads) {
                        progress.step(shape + " on " + config);
                        ClusterWorkloads.Prepared p = ClusterWorkloads.shape(shape, target.client(), "r" + round + "-",
                                o.size);
                        Sample s = measure(target, p);
                        graphs.put(shape, p);
                        if (!warm) {
                            samples.computeIfAbsent(shape, k -> new ArrayList<>()).add(s);
                        }
                    }
                }
                for (String shape : o.workloads) {
                    rows.add(row(target, shape, graphs.get(shape), samples.get(shape)));
                }
            }
        }
        progress.finish();
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        return new ClusterReport(o.warmupRounds, o.rounds, elapsed, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), ClusterTarget.BALANCE_INTERVAL.toMillis(), rows);
    }

    /** One run's figures; {@code tcpBytes} is negative where it could not be read. */
    private record Sample(double seconds, long dataBytes, long tcpBytes, long steals) {
    }

    private static Sample measure(ClusterTarget target, ClusterWorkloads.Prepared p) throws Exception {
        long data0 = target.dataBytes().orElse(0);
        long steals0 = target.steals().orElse(0);
        OptionalLong tcp0 = TcpBytes.sentBy(target.workerPids());
        long start = System.nanoTime();
        List<? extends ClusterFuture<?>> futures = p.submit();
        long deadline = start + TimeUnit.SECONDS.toNanos(RUN_TIMEOUT_SECONDS);
        for (ClusterFuture<?> f : futures) {
            f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        p.check();
        OptionalLong tcp1 = TcpBytes.sentBy(target.workerPids());
        long tcp = tcp0.isPresent() && tcp1.isPresent() ? tcp1.getAsLong() - tcp0.getAsLong() : -1;
        long data = target.dataBytes().orElse(0) - data0;
        long steals = target.steals().orElse(0) - steals0;
        futures.forEach(ClusterFuture::release);
        return new Sample(seconds, data, tcp, steals);
    }

    private static ClusterReport.Row row(ClusterTarget target, String shape, ClusterWorkloads.Prepared p,
                                         List<Sample> samples) {
        List<Double> seconds = new ArrayList<>();
        List<Double> data = new ArrayList<>();
        List<Double> tcp = new ArrayList<>();
        List<Double> steals = new ArrayList<>();
        for (Sample s : samples) {
            seconds.add(s.seconds());
            data.add((double) s.dataBytes());
            tcp.add(s.tcpBytes() < 0 ? Double.NaN : (double) s.tcpBytes());
            steals.add((double) s.steals());
        }
        Stats time = Stats.of(seconds);
        int threads = target.workers() * target.threadsPerWorker();
        double bound = p.work() > 0 ? Math.max(p.work() / threads, p.criticalPath()) : Double.NaN;
        return new ClusterReport.Row(target.config(), target.workers(), target.threadsPerWorker(), shape, p.tasks(),
                time, p.tasks() / time.median(), bound, time.median() / bound,
                present(target.dataBytes(), data),
                target.workerPids().isEmpty() || tcp.contains(Double.NaN) ? Double.NaN : Stats.of(tcp).median(),
                present(target.steals(), steals));
    }

    private static double present(OptionalLong counted, List<Double> values) {
        return counted.isPresent() ? Stats.of(values).median() : Double.NaN;
    }
}
