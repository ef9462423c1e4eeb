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

    /** @param fallback seconds assumed for a prefix never measured and without a hint */
    DurationEstimates(double fallback) {
        this.fallback = fallback;
    }

    void record(String prefix, double seconds) {
        byPrefix.merge(prefix, seconds, (old, now) -> 0.5 * old + 0.5 * now);
    }

    /** A task of this prefix has been running for {@code seconds} and has not finished. */
    void running(String prefix, double seconds) {
        longestRunning.merge(prefix, seconds, Math::max);
        Double learned = byPrefix.get(prefix);
        if (learned != null && seconds > 2 * learned) {
            byPrefix.remove(prefix);
        }
    }

    /** Whether the prefix has been measured, finished or running. */
    boolean measured(String prefix) {
        return byPrefix.containsKey(prefix) || longestRunning.containsKey(prefix);
    }

    /**
     * The estimate: measured if known, else twice the longest running time seen, else the hint
     * if given (negative = none), else the fallback.
     */
    double estimate(String prefix, double hint) {
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
}
