/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.HashMap;
import java.util.Map;

/**
 * Learned task durations per key prefix: an exponential average giving each new measurement
 * half the weight, so estimates follow a workload that changes. Scheduler thread only.
 */
final class DurationEstimates {

    private final Map<String, Double> byPrefix = new HashMap<>();
    private final double fallback;

    /** @param fallback seconds assumed for a prefix never measured and without a hint */
    DurationEstimates(double fallback) {
        this.fallback = fallback;
    }

    void record(String prefix, double seconds) {
        byPrefix.merge(prefix, seconds, (old, now) -> 0.5 * old + 0.5 * now);
    }

    /** Whether the prefix has been measured. */
    boolean measured(String prefix) {
        return byPrefix.containsKey(prefix);
    }

    /** The estimate: measured if known, else the hint if given (negative = none), else the fallback. */
    double estimate(String prefix, double hint) {
        Double learned = byPrefix.get(prefix);
        if (learned != null) {
            return learned;
        }
        return hint >= 0 ? hint : fallback;
    }
}
