/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.async.AsyncTargets;
import dev.spindle.bench.async.AsyncWorkload;
import dev.spindle.bench.async.AsyncWorkloads;
import dev.spindle.bench.async.Contention;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The quick harness for the async workloads ({@code spindle bench async}), in the manner of
 * {@link ActorHarness}:
 *
 * <ul>
 *   <li>Tokio's runtime benchmarks ({@link AsyncWorkloads#TOKIO}) on every selected runtime
 *       ({@link AsyncTargets}): warm-up rounds calibrate runs per sample (about
 *       {@value QuickHarness#TARGET_SAMPLE_MS} ms on the fastest runtime), then each measured
 *       round runs every workload once per runtime, back to back, the order rotating from round
 *       to round. Each runtime's figure is its median time per run; the ratio is best async
 *       throughput / best CompletableFuture throughput.</li>
 *   <li>The contention workloads ({@link AsyncWorkloads#CONTENTION}) on the selected async
 *       runtimes, {@value #CONTENTION_RUNS_PER_ROUND} runs per runtime per round, interleaved the
 *       same way. Each run gives the
 *       throughput and the p50 / p99 / max of the tasks' wake counts and completion times; the
 *       report gives the median over the measured runs of each, and the ratios WORK_STEALING /
 *       HYBRID of the p99s (> 1 means HYBRID's tail is shorter) and HYBRID / WORK_STEALING of the
 *       throughput.</li>
 * </ul>
 *
 * <p>Every run checks its result, so a wrong answer fails the run.
 */
public final class AsyncHarness {

    public static final int DEFAULT_ROUNDS = 15;
    public static final int DEFAULT_WARMUP_ROUNDS = 5;
    /**
     * Contention runs per runtime per round: one run is short and its tail figures vary a lot
     * from run to run, so each round takes several (interleaved between the runtimes).
     */
    public static final int CONTENTION_RUNS_PER_ROUND = 3;

    /**
     * Everything a run can be told (see {@link RunOptions}). The runtimes are
     * {@link AsyncTargets#defaultIds()} unless named: {@code vthreads} only on JDK 21+.
     */
    public static final class Options extends RunOptions<Options> {
        /** Whether {@link #workloads} chose the workloads (by default they are {@link AsyncWorkloads#defaults()}). */
        private boolean named;

        public Options() {
            super(AsyncWorkloads.names(), AsyncTargets.ids(), AsyncTargets.defaultIds(), "async runtime",
                    DEFAULT_ROUNDS, DEFAULT_WARMUP_ROUNDS);
            workloads = AsyncWorkloads.defaults();  // the variants run only when named
        }

        /**
         * {@inheritDoc}
         *
         * @throws IllegalArgumentException also for a runtime this JVM cannot run ({@code vthreads}
         *         before JDK 21), saying what it needs
         */
        @Override
        public Options runtimes(List<String> ids) {
            super.runtimes(ids);
            for (String id : runtimes()) {
                AsyncTargets.byId(id).requireAvailable();
            }
            requireAnAsyncRuntimeForNamedContention();
            return this;
        }

        /**
         * {@inheritDoc}
         *
         * @throws IllegalArgumentException also for a contention workload while the runtimes include
         *         no async one, which it needs (see {@link #runtimes})
         */
        @Override
        public Options workloads(List<String> names) {
            super.workloads(names);
            named = true;
            requireAnAsyncRuntimeForNamedContention();
            return this;
        }

        /**
         * A contention workload runs on the async runtimes only. Named while none is selected, it
         * was dropped without a word ({@code --workloads contention --runtimes cf-fjp} ran nothing
         * and exited 0); by default the contention workloads run where they can, so only named ones
         * are refused.
         */
        private void requireAnAsyncRuntimeForNamedContention() {
            List<String> contention = workloads().stream().filter(AsyncWorkloads.CONTENTION::contains).toList();
            if (!named || contention.isEmpty()
                    || runtimes().stream().anyMatch(id -> AsyncTargets.byId(id).family() == AsyncTargets.Family.ASYNC)) {
                return;
            }
            List<String> async = AsyncTargets.ids().stream()
                    .filter(id -> AsyncTargets.byId(id).family() == AsyncTargets.Family.ASYNC).toList();
            boolean one = contention.size() == 1;
            throw new IllegalArgumentException((one ? "workload '" : "workloads '") + String.join("', '", contention)
                    + (one ? "' runs" : "' run") + " on the async runtimes only (" + String.join(", ", async)
                    + "); none is selected");
        }
    }

    private final Options o;

    public AsyncHarness(Options options) {
        this.o = options;
    }

    /** Runs everything selected and returns the report. */
    public AsyncReport run() {
        long t0 = System.nanoTime();
        List<AsyncWorkload> workloads = new ArrayList<>();
        List<Contention> contention = new ArrayList<>();
        for (String name : o.workloads) {
            if (AsyncWorkloads.CONTENTION.contains(name)) {
                contention.add(AsyncWorkloads.contention(name, o.size));
            } else {
                workloads.add(AsyncWorkloads.create(name, o.size));
            }
        }
        List<AsyncTargets.Spec> specs = new ArrayList<>();
        List<Integer> asyncIdx = new ArrayList<>();           // indexes (into specs) of the async runtimes
        for (String id : o.runtimes) {
            AsyncTargets.Spec s = AsyncTargets.byId(id);
            if (s.family() == AsyncTargets.Family.ASYNC) {
                asyncIdx.add(specs.size());
            }
            specs.add(s);
        }
        if (!contention.isEmpty() && asyncIdx.isEmpty()) {
            contention.clear();                               // the defaults, with nothing to run them on (named: refused)
        }
        int n = specs.size();
        int na = asyncIdx.size();
        Progress progress = o.progress;
        progress.start((o.warmupRounds + o.rounds) * (workloads.size() * n + contention.size() * na));

        List<AsyncTargets.Target> targets = new ArrayList<>();
        Map<AsyncWorkload, List<List<Double>>> samples = new LinkedHashMap<>();
        Map<AsyncWorkload, Integer> reps = new LinkedHashMap<>();
        Map<Contention, List<List<Contention.Result>>> results = new LinkedHashMap<>();
        try {
            for (AsyncTargets.Spec s : specs) {
                targets.add(s.open(o.workers));
            }
            for (AsyncWorkload w : workloads) {
                reps.put(w, 1);
                samples.put(w, lists(n));
            }
            for (Contention c : contention) {
                results.put(c, lists(na));
            }
            for (int round = 0; round < o.warmupRounds + o.rounds; round++) {
                boolean warm = round < o.warmupRounds;
                progress.phase(warm ? "warm-up round " + (round + 1) + "/" + o.warmupRounds
                        : "round " + (round - o.warmupRounds + 1) + "/" + o.rounds);
                for (AsyncWorkload w : workloads) {
                    double fastest = Double.MAX_VALUE;
                    for (int i = 0; i < n; i++) {
                        int k = (i + round) % n;
                        progress.step(w.name() + " on " + specs.get(k).id());
                        double ms = sample(w, targets.get(k), reps.get(w));
                        fastest = Math.min(fastest, ms);
                        if (!warm) {
                            samples.get(w).get(k).add(ms);
                        }
                    }
                    if (warm) {                           // runs get faster as the code is compiled
                        reps.put(w, (int) Math.max(1, Math.min(QuickHarness.MAX_REPS,
                                Math.ceil(QuickHarness.TARGET_SAMPLE_MS / Math.max(fastest, 1e-3)))));
                    }
                }
                for (Contention c : contention) {
                    for (int i = 0; i < na; i++) {
                        AsyncTargets.Target t = targets.get(asyncIdx.get((i + round) % na));
                        progress.step(c.name() + " on " + t.id());
                    }
                    for (int rep = 0; rep < CONTENTION_RUNS_PER_ROUND; rep++) {
                        for (int i = 0; i < na; i++) {
                            int a = (i + round + rep) % na;
                            Contention.Result r = c.run(targets.get(asyncIdx.get(a)).runtime());
                            if (!warm) {
                                results.get(c).get(a).add(r);
                            }
                        }
                    }
                }
            }
        } finally {
            targets.forEach(AsyncTargets.Target::close);
        }
        progress.finish();

        List<AsyncReport.Runtime> runtimes = new ArrayList<>();
        for (AsyncTargets.Spec s : specs) {
            runtimes.add(new AsyncReport.Runtime(s.id(), s.family().label(), s.description(o.workers)));
        }
        List<AsyncReport.Row> rows = new ArrayList<>();
        for (AsyncWorkload w : workloads) {
            rows.add(row(w, specs, samples.get(w), reps.get(w)));
        }
        List<AsyncReport.ContentionRow> crows = new ArrayList<>();
        for (Contention c : contention) {
            List<AsyncReport.ContentionFigures> figs = new ArrayList<>();
            for (int a = 0; a < na; a++) {
                figs.add(figures(specs.get(asyncIdx.get(a)).id(), results.get(c).get(a)));
            }
            crows.add(contentionRow(c, figs));
        }
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        return new AsyncReport(o.workers, o.warmupRounds, o.rounds, elapsed, System.getProperty("java.version"),
                runtimes, rows, crows);
    }

    private static <T> List<List<T>> lists(int n) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>());
        }
        return out;
    }

    private AsyncReport.Row row(AsyncWorkload w, List<AsyncTargets.Spec> specs, List<List<Double>> perTarget, int reps) {
        int async = AsyncTargets.Family.ASYNC.ordinal();
        int cf = AsyncTargets.Family.CF.ordinal();
        int vt = AsyncTargets.Family.VT.ordinal();
        List<Stats> stats = new ArrayList<>();
        double[] bestMs = nans();                             // per family: the lowest median
        String[] bestId = new String[bestMs.length];
        for (int k = 0; k < specs.size(); k++) {
            Stats s = Stats.of(perTarget.get(k));
            stats.add(s);
            int f = specs.get(k).family().ordinal();
            if (!(s.median() >= bestMs[f])) {
                bestMs[f] = s.median();
                bestId[f] = specs.get(k).id();
            }
        }
        List<Double> perRound = new ArrayList<>();
        List<Double> vtPerRound = new ArrayList<>();
        for (int r = 0; r < o.rounds; r++) {
            double[] min = nans();                            // per family: this round's fastest
            for (int k = 0; k < specs.size(); k++) {
                int f = specs.get(k).family().ordinal();
                double v = perTarget.get(k).get(r);
                min[f] = Double.isNaN(min[f]) ? v : Math.min(min[f], v);
            }
            if (!Double.isNaN(min[async]) && !Double.isNaN(min[cf])) {
                perRound.add(min[cf] / min[async]);
            }
            if (!Double.isNaN(min[async]) && !Double.isNaN(min[vt])) {
                vtPerRound.add(min[vt] / min[async]);
            }
        }
        double fastest = Double.NaN;
        for (double ms : bestMs) {
            fastest = Double.isNaN(fastest) ? ms : Double.isNaN(ms) ? fastest : Math.min(fastest, ms);
        }
        String note = String.format(Locale.ROOT, "%s ops/s at best", rate(w.operations() / (fastest / 1e3)));
        if (reps > 1) {
            note += "; " + reps + " runs per sample";
        }
        return new AsyncReport.Row(w.name(), w.describe(), "ms", w.operations(), stats, bestId[async], bestId[cf],
                bestMs[cf] / bestMs[async], Stats.of(perRound), bestMs[vt] / bestMs[async], Stats.of(vtPerRound), note);
    }

    private static double[] nans() {
        double[] a = new double[AsyncTargets.Family.values().length];
        Arrays.fill(a, Double.NaN);
        return a;
    }

    private static AsyncReport.ContentionFigures figures(String id, List<Contention.Result> rs) {
        List<Double> thr = new ArrayList<>();
        List<Double> w50 = new ArrayList<>();
        List<Double> w99 = new ArrayList<>();
        List<Double> wMax = new ArrayList<>();
        List<Double> c50 = new ArrayList<>();
        List<Double> c99 = new ArrayList<>();
        List<Double> cMax = new ArrayList<>();
        for (Contention.Result r : rs) {
            thr.add(r.throughput());
            w50.add((double) r.wakesAt(0.5));
            w99.add((double) r.wakesAt(0.99));
            wMax.add((double) r.wakesAt(1.0));
            c50.add(r.completionNanosAt(0.5) / 1e6);
            c99.add(r.completionNanosAt(0.99) / 1e6);
            cMax.add(r.completionNanosAt(1.0) / 1e6);
        }
        return new AsyncReport.ContentionFigures(id, Stats.of(thr), Stats.of(w50), Stats.of(w99), Stats.of(wMax),
                Stats.of(c50), Stats.of(c99), Stats.of(cMax));
    }

    private static AsyncReport.ContentionRow contentionRow(Contention c, List<AsyncReport.ContentionFigures> figs) {
        AsyncReport.ContentionFigures ws = null;
        AsyncReport.ContentionFigures hy = null;
        for (AsyncReport.ContentionFigures f : figs) {
            if (f.runtime().equals("async-ws")) {
                ws = f;
            } else if (f.runtime().equals("async-hybrid")) {
                hy = f;
            }
        }
        double wakeRatio = Double.NaN;
        double completionRatio = Double.NaN;
        double throughputRatio = Double.NaN;
        if (ws != null && hy != null) {
            wakeRatio = ws.wakesP99().median() / hy.wakesP99().median();
            completionRatio = ws.completionP99Ms().median() / hy.completionP99Ms().median();
            throughputRatio = hy.throughput().median() / ws.throughput().median();
        }
        return new AsyncReport.ContentionRow(c.name(), c.describe(), c.tasks(), figs, wakeRatio, completionRatio,
                throughputRatio);
    }

    static String rate(double perSecond) {
        if (Double.isNaN(perSecond) || Double.isInfinite(perSecond)) {
            return "-";
        }
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", perSecond / 1e6);
        }
        return String.format(Locale.ROOT, "%.0fk", perSecond / 1e3);
    }

    /** Milliseconds per run, over {@code reps} back-to-back runs. */
    private static double sample(AsyncWorkload w, AsyncTargets.Target t, int reps) {
        long start = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            t.run(w);
        }
        return (System.nanoTime() - start) / 1e6 / reps;
    }
}
