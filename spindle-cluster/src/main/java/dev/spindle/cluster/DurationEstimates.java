/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.HashMap;
import java.util.Map;

/**
 * Learned task durations per key prefix: an exponential average giving each new measurement
 * half the weight, so estimates follow a workload that changes. Scheduler thread only.
 *
 * <p>Running tasks count too, as in Dask's {@code TaskPrefix.add_exec_time}: a task reported
 * still running after more than twice its kind's average discards the average, and until the
 * next measurement the estimate is twice the longest running time seen. So a kind that turns
 * out slower than learned raises its worker's occupancy while the slow task still runs, and the
 * tasks queued behind it become worth stealing.
 */
final class DurationEstimates {

    private final Map<String, Double> byPrefix = new HashMap<>();
    private final Map<String, Double> longestRunning = new HashMap<>();
    private final double fallback;
    /** Calls of {@link #estimate}, so a test can check that placement does not walk every queued task. */
    private long estimates;

    /** @param fallback seconds assumed for a prefix never measured and without a hint */
    DurationEstimates(double fallback) {
        this.fallback = fallback;
    }

    /** A task of this prefix finished in {@code seconds}; returns whether the prefix was not measured before. */
    boolean record(String prefix, double seconds) {
        boolean first = !measured(prefix);
        byPrefix.merge(prefix, seconds, (old, now) -> 0.5 * old + 0.5 * now);
        return first;
    }

    /**
     * A task of this prefix has been running for {@code seconds} and has not finished; returns
     * whether the prefix was not measured before.
     */
    boolean running(String prefix, double seconds) {
        boolean first = !measured(prefix);
        longestRunning.merge(prefix, seconds, Math::max);
        Double learned = byPrefix.get(prefix);
        if (learned != null && seconds > 2 * learned) {
            byPrefix.remove(prefix);
        }
        return first;
    }

    /**
     * Whether the prefix has been measured, finished or running. Never reverts: once true, the
     * estimate of every task of the prefix is the same and ignores its hint.
     */
    boolean measured(String prefix) {
        return byPrefix.containsKey(prefix) || longestRunning.containsKey(prefix);
    }

    /**
     * The estimate: measured if known, else twice the longest running time seen, else the hint
     * if given (negative = none), else the fallback.
     */
    double estimate(String prefix, double hint) {
        estimates++;
        Double learned = byPrefix.get(prefix);
        if (learned != null) {
            return learned;
        }
        Double running = longestRunning.get(prefix);
        if (running != null) {
            return 2 * running;
        }
        return hint >= 0 ? hint : fallback;
    }

    /** How many estimates were asked for so far. */
    long estimatesAsked() {
        return estimates;
    }

    /** Seconds assumed for a task whose prefix was never measured and that has no hint. */
    double fallback() {
        return fallback;
    }
}
