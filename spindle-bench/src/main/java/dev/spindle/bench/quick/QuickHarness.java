/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import dev.spindle.bench.workload.FibCutoff;
import dev.spindle.bench.workload.IdleCpuProbe;
import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.SubmitLatencyProbe;
import dev.spindle.bench.workload.Workload;
import dev.spindle.bench.workload.Workloads;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A quick side-by-side comparison of Spindle and {@code ForkJoinPool}, not a JMH run: minutes
 * instead of hours, for a first look and for regressions.
 *
 * <ol>
 *   <li>Warm-up rounds run every workload on Spindle and on both {@code ForkJoinPool} modes. The
 *       first also calibrates how many runs make one sample (about {@value #TARGET_SAMPLE_MS} ms;
 *       every warm-up round calibrates again, as the code gets compiled).
 *       The faster {@code ForkJoinPool} mode of the later warm-up rounds is the one compared.</li>
 *   <li>Measured rounds run every workload once per runtime, the two runtimes back to back in an
 *       order that alternates between rounds, so both see the same noise.</li>
 *   <li>The probes: submit-to-start latency at low load (alternating chunks of samples) and the
 *       CPU an idle pool burns (alternating windows on fresh pools).</li>
 * </ol>
 *
 * <p>Each statistic is the median over rounds; the spread is the range of per-round ratios.
 * Every workload run checks its result, so a wrong answer fails the run instead of posting a time.
 */
public final class QuickHarness {

    /** Name that selects the latency probe in {@link Options#workloads}. */
    public static final String LATENCY = "latency";
    /** Name that selects the idle-CPU probe in {@link Options#workloads}. */
    public static final String IDLE_CPU = "idle-cpu";

    public static final int DEFAULT_ROUNDS = 20;
    public static final int DEFAULT_WARMUP_ROUNDS = 5;
    static final int TARGET_SAMPLE_MS = 25;
    static final int MAX_REPS = 500;

    /** Everything a run can be told. */
    public static final class Options {
        private List<String> workloads = defaultWorkloads();
        private int workers = Runtime.getRuntime().availableProcessors();
        private int rounds = DEFAULT_ROUNDS;
        private int warmupRounds = DEFAULT_WARMUP_ROUNDS;
        private Size size = Size.QUICK;
        private int latencySamples = 4_000;
        private int latencyChunks = 4;
        private long latencyGapMicros = 200;
        private int idleWindows = 3;
        private long idleWindowMillis = 500;
        private long idleSettleMillis = 200;
        private Progress progress = Progress.none();

        /**
         * Workload and probe names, in the order to report them.
         *
         * @throws IllegalArgumentException for an unknown or repeated name, naming the valid ones
         *         or the repeated one, or an empty list
         */
        public Options workloads(List<String> names) {
            this.workloads = RunOptions.checked(names, validNames(), "workload");
            return this;
        }

        public Options workers(int n) {
            this.workers = atLeast("workers", n, 1);
            return this;
        }

        public Options rounds(int n) {
            this.rounds = atLeast("rounds", n, 1);
            return this;
        }

        public Options warmupRounds(int n) {
            this.warmupRounds = atLeast("warm-up rounds", n, 1);
            return this;
        }

        /** The workload sizes; {@link Size#QUICK} by default, {@link Size#TINY} for tests. */
        public Options size(Size s) {
            this.size = s;
            return this;
        }

        /** Latency samples per runtime, taken in {@code chunks} alternating chunks, {@code gapMicros} apart. */
        public Options latency(int samples, int chunks, long gapMicros) {
            this.latencyChunks = atLeast("latency chunks", chunks, 1);
            this.latencySamples = atLeast("latency samples", samples, chunks);
            this.latencyGapMicros = atLeast("latency gap", gapMicros, 0);
            return this;
        }

        /** Idle-CPU windows per runtime, each on a fresh pool, after letting it settle. */
        public Options idleCpu(int windows, long windowMillis, long settleMillis) {
            this.idleWindows = atLeast("idle windows", windows, 1);
            this.idleWindowMillis = atLeast("idle window", windowMillis, 1);
            this.idleSettleMillis = atLeast("idle settle time", settleMillis, 0);
            return this;
        }

        public Options progress(Progress p) {
            this.progress = p;
            return this;
        }

        public List<String> workloads() {
            return workloads;
        }

        public int workers() {
            return workers;
        }

        public int rounds() {
            return rounds;
        }

        public int warmupRounds() {
            return warmupRounds;
        }

        private static int atLeast(String what, int v, int min) {
            if (v < min) {
                throw new IllegalArgumentException(what + " must be at least " + min + ", was " + v);
            }
            return v;
        }

        private static long atLeast(String what, long v, long min) {
            if (v < min) {
                throw new IllegalArgumentException(what + " must be at least " + min + ", was " + v);
            }
            return v;
        }
    }

    /** Every workload, then both probes. */
    public static List<String> defaultWorkloads() {
        return validNames();
    }

    /** The names {@link Options#workloads} accepts. */
    public static List<String> validNames() {
        List<String> all = new ArrayList<>(Workloads.names());
        all.add(LATENCY);
        all.add(IDLE_CPU);
        return List.copyOf(all);
    }

    private static final RuntimeKind[] CANDIDATES = {RuntimeKind.SPINDLE, RuntimeKind.FJP, RuntimeKind.FJP_ASYNC};

    private final Options o;
    /** Makes the runtimes compared: {@link Runtimes#create}; tests wrap it. */
    private final BiFunction<RuntimeKind, Integer, BenchRuntime> runtimes;

    public QuickHarness(Options options) {
        this(options, Runtimes::create);
    }

    /** With the runtimes made by {@code runtimes} (kind, workers) instead of {@link Runtimes#create}. */
    QuickHarness(Options options, BiFunction<RuntimeKind, Integer, BenchRuntime> runtimes) {
        this.o = options;
        this.runtimes = runtimes;
    }

    /** Runs everything selected and returns the report. */
    public Report run() {
        long t0 = System.nanoTime();
        List<Workload> workloads = new ArrayList<>();
        for (String name : o.workloads) {
            if (!name.equals(LATENCY) && !name.equals(IDLE_CPU)) {
                workloads.add(Workloads.create(name, o.size));
            }
        }
        boolean latency = o.workloads.contains(LATENCY);
        boolean idle = o.workloads.contains(IDLE_CPU);

        int stepsPerWarmup = 0;
        int stepsPerRound = 0;
        for (Workload w : workloads) {
            int seq = w instanceof FibCutoff ? 1 : 0;
            stepsPerWarmup += CANDIDATES.length + seq;
            stepsPerRound += 2 + seq;
        }
        int total = o.warmupRounds * stepsPerWarmup + o.rounds * stepsPerRound
                + (latency ? 2 * (o.latencyChunks + 1) : 0) + (idle ? 2 * o.idleWindows : 0);
        Progress progress = o.progress;
        progress.start(total);

        Map<String, Row> rows = new LinkedHashMap<>();
        Map<RuntimeKind, BenchRuntime> rts = new EnumMap<>(RuntimeKind.class);
        Throwable failure = null;
        try {
            for (RuntimeKind k : CANDIDATES) {
                BenchRuntime rt = runtimes.apply(k, o.workers);
                rts.put(k, rt);
                rt.prestart();
            }
            if (!workloads.isEmpty()) {
                measureWorkloads(workloads, rts, progress, rows);
            }
            if (latency) {
                measureLatency(rts.get(RuntimeKind.SPINDLE), rts.get(RuntimeKind.FJP), progress, rows);
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            closeAll(rts.values(), BenchRuntime::close, failure);
        }
        if (idle) {
            measureIdle(progress, rows);
        }
        progress.finish();
        List<Row> ordered = new ArrayList<>();
        for (String name : o.workloads) {
            for (Map.Entry<String, Row> e : rows.entrySet()) {
                if (e.getKey().startsWith(name + "#")) {
                    ordered.add(e.getValue());
                }
            }
        }
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        return new Report(o.workers, o.warmupRounds, o.rounds, elapsed, System.getProperty("java.version"), ordered);
    }

    /**
     * Closes every runtime with {@code close}, even when a close fails. A close that fails after
     * the run failed ({@code failure}, else null) is added to that failure, which stays the one
     * reported: a workload that hung on a pool ("did not complete within 120 s") leaves that pool
     * unable to terminate, and its close's failure ("did not terminate within 30 s"), thrown from
     * the finally block, replaced the one that named the workload, and left the runtimes after it
     * open. After a run that did not fail, the first close failure is thrown, with any later ones
     * suppressed. {@link ActorHarness} closes its runtimes the same way.
     */
    static <R> void closeAll(Collection<R> runtimes, Consumer<? super R> close, Throwable failure) {
        RuntimeException first = null;
        for (R rt : runtimes) {
            try {
                close.accept(rt);
            } catch (RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    // ------------------------------------------------------------------ workloads

    private void measureWorkloads(List<Workload> workloads, Map<RuntimeKind, BenchRuntime> rts,
            Progress progress, Map<String, Row> rows) {
        Map<Workload, Integer> reps = new LinkedHashMap<>();
        Map<Workload, Map<RuntimeKind, List<Double>>> warm = new LinkedHashMap<>();
        for (Workload w : workloads) {
            reps.put(w, 1);
            warm.put(w, new EnumMap<>(RuntimeKind.class));
        }
        for (int round = 0; round < o.warmupRounds; round++) {
            progress.phase("warm-up round " + (round + 1) + "/" + o.warmupRounds);
            for (Workload w : workloads) {
                double fastest = Double.MAX_VALUE;
                for (int i = 0; i < CANDIDATES.length; i++) {
                    RuntimeKind k = CANDIDATES[(i + round) % CANDIDATES.length];
                    progress.step(w.name() + " on " + k);
                    double ms = sample(w, rts.get(k), reps.get(w));
                    fastest = Math.min(fastest, ms);
                    if (round > 0 || o.warmupRounds == 1) {
                        warm.get(w).computeIfAbsent(k, x -> new ArrayList<>()).add(ms);
                    }
                }
                if (w instanceof FibCutoff fc) {
                    progress.step(w.name() + " sequentially");
                    sampleSequential(fc, reps.get(w));
                }
                // recalibrate every warm-up round: runs get faster as the code is compiled
                reps.put(w, (int) Math.max(1, Math.min(MAX_REPS, Math.ceil(TARGET_SAMPLE_MS / Math.max(fastest, 1e-3)))));
            }
        }
        Map<Workload, RuntimeKind> mode = new LinkedHashMap<>();
        for (Workload w : workloads) {
            mode.put(w, fasterForkJoinMode(warm.get(w)));
        }

        Map<Workload, List<Double>> spindle = new LinkedHashMap<>();
        Map<Workload, List<Double>> fjp = new LinkedHashMap<>();
        Map<Workload, List<Double>> ratios = new LinkedHashMap<>();
        Map<Workload, List<Double>> seq = new LinkedHashMap<>();
        // per workload: CPU ns and wall ns of Spindle's samples, then of FJP's; the most live
        // threads each runtime had after a sample (workers, spares, compensation threads)
        Map<Workload, long[]> cpu = new LinkedHashMap<>();
        for (Workload w : workloads) {
            cpu.put(w, new long[6]);
            spindle.put(w, new ArrayList<>());
            fjp.put(w, new ArrayList<>());
            ratios.put(w, new ArrayList<>());
            seq.put(w, new ArrayList<>());
        }
        for (int round = 0; round < o.rounds; round++) {
            progress.phase("round " + (round + 1) + "/" + o.rounds);
            for (Workload w : workloads) {
                RuntimeKind f = mode.get(w);
                boolean spindleFirst = round % 2 == 0;
                double s;
                double j;
                long[] c = cpu.get(w);
                if (spindleFirst) {
                    progress.step(w.name() + " on spindle");
                    s = sample(w, rts.get(RuntimeKind.SPINDLE), reps.get(w), c, 0);
                    progress.step(w.name() + " on " + f);
                    j = sample(w, rts.get(f), reps.get(w), c, 3);
                } else {
                    progress.step(w.name() + " on " + f);
                    j = sample(w, rts.get(f), reps.get(w), c, 3);
                    progress.step(w.name() + " on spindle");
                    s = sample(w, rts.get(RuntimeKind.SPINDLE), reps.get(w), c, 0);
                }
                spindle.get(w).add(s);
                fjp.get(w).add(j);
                ratios.get(w).add(j / s);
                if (w instanceof FibCutoff fc) {
                    progress.step(w.name() + " sequentially");
                    seq.get(w).add(sampleSequential(fc, reps.get(w)));
                }
            }
        }
        for (Workload w : workloads) {
            Stats s = Stats.of(spindle.get(w));
            Stats j = Stats.of(fjp.get(w));
            String note = "";
            if (w instanceof FibCutoff) {
                double tSeq = Stats.of(seq.get(w)).median();
                note = String.format(Locale.ROOT, "efficiency T_seq/(P*T_par): Spindle %.2f, FJP %.2f (T_seq %.1f ms, P %d)",
                        tSeq / (o.workers * s.median()), tSeq / (o.workers * j.median()), tSeq, o.workers);
            }
            if (reps.get(w) > 1) {
                note = (note.isEmpty() ? "" : note + "; ") + "time per run, " + reps.get(w) + " runs per sample";
            }
            // CPU time is counted in clock ticks on some systems: a few short samples may show none
            long[] c = cpu.get(w);
            String busy = c[0] > 0 && c[3] > 0
                    ? String.format(Locale.ROOT, "busy cores Spindle %.2f, FJP %.2f; ", c[0] / (double) c[1], c[3] / (double) c[4])
                    : "";
            note = (note.isEmpty() ? "" : note + "; ") + busy
                    + String.format(Locale.ROOT, "threads at most Spindle %d, FJP %d", c[2], c[5]);
            rows.put(w.name() + "#", new Row(w.name(), w.describe(), "ms", mode.get(w).id(), s, j,
                    j.median() / s.median(), Stats.of(ratios.get(w)), note));
        }
    }

    /**
     * The ForkJoinPool mode compared with Spindle: the one with the lower median time per run
     * in {@code warmupMs} (the warm-up samples kept, per runtime), that is the faster baseline;
     * LIFO on a tie.
     */
    static RuntimeKind fasterForkJoinMode(Map<RuntimeKind, List<Double>> warmupMs) {
        double fjp = Stats.of(warmupMs.get(RuntimeKind.FJP)).median();
        double async = Stats.of(warmupMs.get(RuntimeKind.FJP_ASYNC)).median();
        return async < fjp ? RuntimeKind.FJP_ASYNC : RuntimeKind.FJP;
    }

    /** Milliseconds per run, over {@code reps} back-to-back runs. */
    private static double sample(Workload w, BenchRuntime rt, int reps) {
        long t = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            w.run(rt);
        }
        return (System.nanoTime() - t) / 1e6 / reps;
    }

    /**
     * {@link #sample(Workload, BenchRuntime, int)}, adding the process's CPU time and the wall
     * time to {@code acc[at]} and {@code acc[at + 1]} and keeping in {@code acc[at + 2]} the most
     * threads {@code rt} had alive after a sample (counted outside the timed runs).
     */
    private static double sample(Workload w, BenchRuntime rt, int reps, long[] acc, int at) {
        long cpu0 = ProcessCpu.nanos();
        long t = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            w.run(rt);
        }
        long wall = System.nanoTime() - t;
        acc[at] += ProcessCpu.nanos() - cpu0;
        acc[at + 1] += wall;
        acc[at + 2] = Math.max(acc[at + 2], ProcessCpu.liveThreads(rt));
        return wall / 1e6 / reps;
    }

    private static double sampleSequential(FibCutoff w, int reps) {
        long t = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            w.runSequential();
        }
        return (System.nanoTime() - t) / 1e6 / reps;
    }

    // ------------------------------------------------------------------ probes

    private void measureLatency(BenchRuntime spindle, BenchRuntime fjp, Progress progress, Map<String, Row> rows) {
        progress.phase("latency probe");
        SubmitLatencyProbe probe = new SubmitLatencyProbe(TimeUnit.MICROSECONDS.toNanos(o.latencyGapMicros));
        int perChunk = Math.max(1, o.latencySamples / o.latencyChunks);
        // Discarded samples on each to warm the code paths: 2.5 times the measured ones, at most
        // 10,000 (one chunk of 1,000 left a probe run alone in a JVM measuring Spindle's path
        // still being compiled: p99 0.44-0.57 of FJP's, at parity once warmed; BENCHMARKS.md,
        // session 22). In the full suite the workloads before it have warmed both anyway.
        int warmup = (int) Math.max(perChunk, Math.min(10_000L, 5L * o.latencySamples / 2));
        for (BenchRuntime rt : List.of(spindle, fjp)) {
            progress.step("latency warm-up on " + rt.kind());
            probe.measure(rt, warmup, SubmitLatencyProbe.newHistogram());
        }
        Histogram allS = SubmitLatencyProbe.newHistogram();
        Histogram allF = SubmitLatencyProbe.newHistogram();
        double[] pct = {50, 99, 99.9};
        List<List<Double>> chunkS = new ArrayList<>();
        List<List<Double>> chunkF = new ArrayList<>();
        List<List<Double>> chunkR = new ArrayList<>();
        for (int p = 0; p < pct.length; p++) {
            chunkS.add(new ArrayList<>());
            chunkF.add(new ArrayList<>());
            chunkR.add(new ArrayList<>());
        }
        for (int c = 0; c < o.latencyChunks; c++) {
            Histogram hs = SubmitLatencyProbe.newHistogram();
            Histogram hf = SubmitLatencyProbe.newHistogram();
            List<BenchRuntime> order = c % 2 == 0 ? List.of(spindle, fjp) : List.of(fjp, spindle);
            for (BenchRuntime rt : order) {
                progress.step("latency chunk " + (c + 1) + " on " + rt.kind());
                probe.measure(rt, perChunk, rt == spindle ? hs : hf);
            }
            allS.add(hs);
            allF.add(hf);
            for (int p = 0; p < pct.length; p++) {
                double s = SubmitLatencyProbe.micros(hs, pct[p]);
                double f = SubmitLatencyProbe.micros(hf, pct[p]);
                chunkS.get(p).add(s);
                chunkF.get(p).add(f);
                chunkR.get(p).add(f / s);
            }
        }
        String[] names = {"latency p50", "latency p99", "latency p99.9"};
        for (int p = 0; p < pct.length; p++) {
            double s = SubmitLatencyProbe.micros(allS, pct[p]);
            double f = SubmitLatencyProbe.micros(allF, pct[p]);
            Stats sc = Stats.of(chunkS.get(p));
            Stats fc = Stats.of(chunkF.get(p));
            // the value is the percentile of all samples and the range is over chunks; quartiles
            // of a handful of chunk percentiles around a pooled percentile would mislead, so none
            Stats ss = new Stats(sc.n(), s, Double.NaN, Double.NaN, sc.min(), sc.max());
            Stats fs = new Stats(fc.n(), f, Double.NaN, Double.NaN, fc.min(), fc.max());
            String note = p == 0 ? String.format(Locale.ROOT,
                    "external submit -> task start, %d samples each, %d us apart; value over all samples, spread over %d chunks",
                    allS.getTotalCount(), o.latencyGapMicros, o.latencyChunks) : "";
            rows.put(LATENCY + "#" + p, new Row(names[p],
                    "submit-to-start latency, " + pct[p] + "th percentile, one task at a time", "us",
                    RuntimeKind.FJP.id(), ss, fs, f / s, Stats.of(chunkR.get(p)), note));
        }
    }

    private void measureIdle(Progress progress, Map<String, Row> rows) {
        progress.phase("idle-CPU probe");
        if (!IdleCpuProbe.supported()) {
            progress.step("idle-CPU probe unsupported");
            progress.step("");
            return;
        }
        IdleCpuProbe probe = new IdleCpuProbe(o.idleSettleMillis, o.idleWindowMillis);
        List<Double> s = new ArrayList<>();
        List<Double> f = new ArrayList<>();
        for (int i = 0; i < o.idleWindows; i++) {
            RuntimeKind[] order = i % 2 == 0
                    ? new RuntimeKind[] {RuntimeKind.SPINDLE, RuntimeKind.FJP}
                    : new RuntimeKind[] {RuntimeKind.FJP, RuntimeKind.SPINDLE};
            double vs = 0;
            double vf = 0;
            for (RuntimeKind k : order) {
                progress.step("idle window " + (i + 1) + " on " + k);
                double v = probe.measure(k, o.workers).percentOfCore();
                if (k == RuntimeKind.SPINDLE) {
                    vs = v;
                } else {
                    vf = v;
                }
            }
            s.add(vs);
            f.add(vf);
        }
        rows.put(IDLE_CPU + "#", idleRow(s, f, String.format(Locale.ROOT, "fresh pool, %d ms settle, %d x %d ms windows",
                o.idleSettleMillis, o.idleWindows, o.idleWindowMillis)));
    }

    /**
     * The idle-CPU row from each window's CPU use, % of one core, Spindle's and FJP's in window
     * order; {@code settings} opens the note.
     *
     * <p>A window where Spindle's pool used no CPU has no ratio (FJP / 0), and where Spindle's
     * median is 0 neither has the row. Such windows were left out of the spread without a word,
     * so a spread over one window of three read as if over all of them, and the ratio showed a
     * bare "n/a" where Spindle had idled cheaper; the note now says how many windows the spread
     * covers and why the ratio is missing.
     */
    static Row idleRow(List<Double> s, List<Double> f, String settings) {
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            if (s.get(i) > 0) {
                r.add(f.get(i) / s.get(i));
            }
        }
        Stats ss = Stats.of(s);
        Stats fs = Stats.of(f);
        double ratio = ss.median() > 0 ? fs.median() / ss.median() : Double.NaN;
        StringBuilder note = new StringBuilder(settings);
        if (r.size() < s.size()) {
            note.append(String.format(Locale.ROOT,
                    "; spread over %d of %d windows (in the others Spindle's pool used no CPU: no ratio)", r.size(), s.size()));
        }
        if (Double.isNaN(ratio)) {
            note.append(fs.median() > 0
                    ? String.format(Locale.ROOT, "; ratio n/a: Spindle's median is 0 %%core, FJP's %.2f", fs.median())
                    : "; ratio n/a: both medians are 0 %core");
        }
        return new Row("idle cpu", "CPU used by an idle pool's threads, % of one core", "%core",
                RuntimeKind.FJP.id(), ss, fs, ratio, Stats.of(r), note.toString());
    }
}
