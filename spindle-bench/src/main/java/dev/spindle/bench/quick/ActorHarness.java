/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.actor.ActorKit;
import dev.spindle.bench.actor.ActorKits;
import dev.spindle.bench.actor.ActorWorkload;
import dev.spindle.bench.actor.ActorWorkloads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The quick harness for the actor workloads ({@code spindle bench actors}): every selected actor
 * runtime (Spindle's and Pekko's variants, {@link ActorKits}) runs every selected workload,
 * interleaved, in the manner of {@link QuickHarness}:
 *
 * <ol>
 *   <li>Warm-up rounds run every workload on every runtime; each calibrates how many runs make
 *       one sample (about {@value QuickHarness#TARGET_SAMPLE_MS} ms on the fastest runtime).</li>
 *   <li>Measured rounds run every workload once per runtime, back to back, the order of the
 *       runtimes rotating from round to round, so all see the same noise.</li>
 * </ol>
 *
 * <p>Each runtime's figure is its median over rounds. The ratio compares the best Spindle
 * variant with the best Pekko variant (best = lowest median time); it is NaN ("n/a") while no
 * Spindle variant runs. Every run checks its result, so a wrong answer fails the run.
 */
public final class ActorHarness {

    public static final int DEFAULT_ROUNDS = 15;
    public static final int DEFAULT_WARMUP_ROUNDS = 5;

    /** Everything a run can be told (see {@link RunOptions}). */
    public static final class Options extends RunOptions<Options> {
        public Options() {
            super(ActorWorkloads.names(), ActorKits.ids(), "actor runtime", DEFAULT_ROUNDS, DEFAULT_WARMUP_ROUNDS);
        }
    }

    private final Options o;
    /** Opens each runtime (its spec, the workers): {@link ActorKits.Spec#open}; tests wrap it. */
    private final BiFunction<ActorKits.Spec, Integer, ActorKit> opener;

    public ActorHarness(Options options) {
        this(options, ActorKits.Spec::open);
    }

    /** With the runtimes opened by {@code opener} (spec, workers) instead of {@link ActorKits.Spec#open}. */
    ActorHarness(Options options, BiFunction<ActorKits.Spec, Integer, ActorKit> opener) {
        this.o = options;
        this.opener = opener;
    }

    /** Runs everything selected and returns the report. */
    public ActorReport run() {
        long t0 = System.nanoTime();
        List<ActorWorkload> workloads = new ArrayList<>();
        for (String name : o.workloads) {
            workloads.add(ActorWorkloads.create(name, o.size));
        }
        List<ActorKits.Spec> specs = new ArrayList<>();
        for (String id : o.runtimes) {
            specs.add(ActorKits.byId(id));
        }
        int n = specs.size();
        Progress progress = o.progress;
        progress.start((o.warmupRounds + o.rounds) * workloads.size() * n);

        List<ActorKit> kits = new ArrayList<>();
        Map<ActorWorkload, List<List<Double>>> samples = new LinkedHashMap<>();
        Map<ActorWorkload, Integer> reps = new LinkedHashMap<>();
        Throwable failure = null;
        try {
            for (ActorKits.Spec s : specs) {
                kits.add(opener.apply(s, o.workers));
            }
            for (ActorWorkload w : workloads) {
                reps.put(w, 1);
                List<List<Double>> perKit = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    perKit.add(new ArrayList<>());
                }
                samples.put(w, perKit);
            }
            for (int round = 0; round < o.warmupRounds; round++) {
                progress.phase("warm-up round " + (round + 1) + "/" + o.warmupRounds);
                for (ActorWorkload w : workloads) {
                    double fastest = Double.MAX_VALUE;
                    for (int i = 0; i < n; i++) {
                        int k = (i + round) % n;
                        progress.step(w.name() + " on " + specs.get(k).id());
                        fastest = Math.min(fastest, sample(w, kits.get(k), reps.get(w)));
                    }
                    // recalibrate every warm-up round: runs get faster as the code is compiled
                    reps.put(w, (int) Math.max(1, Math.min(QuickHarness.MAX_REPS,
                            Math.ceil(QuickHarness.TARGET_SAMPLE_MS / Math.max(fastest, 1e-3)))));
                }
            }
            for (int round = 0; round < o.rounds; round++) {
                progress.phase("round " + (round + 1) + "/" + o.rounds);
                for (ActorWorkload w : workloads) {
                    for (int i = 0; i < n; i++) {
                        int k = (i + round) % n;
                        progress.step(w.name() + " on " + specs.get(k).id());
                        samples.get(w).get(k).add(sample(w, kits.get(k), reps.get(w)));
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            QuickHarness.closeAll(kits, ActorKit::close, failure);   // every one, keeping the run's failure
        }
        progress.finish();

        List<ActorReport.Runtime> runtimes = new ArrayList<>();
        for (ActorKits.Spec s : specs) {
            runtimes.add(new ActorReport.Runtime(s.id(), s.family().label(), s.description()));
        }
        List<ActorReport.Row> rows = new ArrayList<>();
        for (ActorWorkload w : workloads) {
            rows.add(row(w, specs, samples.get(w), reps.get(w)));
        }
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        return new ActorReport(o.workers, o.warmupRounds, o.rounds, elapsed, System.getProperty("java.version"),
                runtimes, rows);
    }

    private ActorReport.Row row(ActorWorkload w, List<ActorKits.Spec> specs, List<List<Double>> perKit, int reps) {
        List<Stats> stats = new ArrayList<>();
        String bestSpindle = null;
        String bestPekko = null;
        double spindleMs = Double.NaN;
        double pekkoMs = Double.NaN;
        for (int k = 0; k < specs.size(); k++) {
            Stats s = Stats.of(perKit.get(k));
            stats.add(s);
            ActorKits.Spec spec = specs.get(k);
            if (spec.family() == ActorKits.Family.SPINDLE && !(s.median() >= spindleMs)) {
                spindleMs = s.median();
                bestSpindle = spec.id();
            } else if (spec.family() == ActorKits.Family.PEKKO && !(s.median() >= pekkoMs)) {
                pekkoMs = s.median();
                bestPekko = spec.id();
            }
        }
        // per round: the best Spindle time against the best Pekko time of that round
        List<Double> perRound = new ArrayList<>();
        for (int r = 0; r < o.rounds; r++) {
            double s = Double.NaN;
            double p = Double.NaN;
            for (int k = 0; k < specs.size(); k++) {
                double v = perKit.get(k).get(r);
                if (specs.get(k).family() == ActorKits.Family.SPINDLE) {
                    s = Double.isNaN(s) ? v : Math.min(s, v);
                } else {
                    p = Double.isNaN(p) ? v : Math.min(p, v);
                }
            }
            if (!Double.isNaN(s) && !Double.isNaN(p)) {
                perRound.add(p / s);
            }
        }
        double bestMs = Double.isNaN(spindleMs) ? pekkoMs : Double.isNaN(pekkoMs) ? spindleMs : Math.min(spindleMs, pekkoMs);
        String note = String.format(Locale.ROOT, "%s msg/s at best", rate(w.messages() / (bestMs / 1e3)));
        if (reps > 1) {
            note += "; time per run, " + reps + " runs per sample";
        }
        return new ActorReport.Row(w.name(), w.describe(), "ms", w.messages(), stats, bestSpindle, bestPekko,
                pekkoMs / spindleMs, Stats.of(perRound), note);
    }

    private static String rate(double perSecond) {
        if (Double.isNaN(perSecond) || Double.isInfinite(perSecond)) {
            return "-";
        }
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", perSecond / 1e6);
        }
        return String.format(Locale.ROOT, "%.0fk", perSecond / 1e3);
    }

    /** Milliseconds per run, over {@code reps} back-to-back runs. */
    private static double sample(ActorWorkload w, ActorKit kit, int reps) {
        long t = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            w.run(kit);
        }
        return (System.nanoTime() - t) / 1e6 / reps;
    }
}
