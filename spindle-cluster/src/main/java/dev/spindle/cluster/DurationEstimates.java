/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Learned task durations per key prefix: an exponential average giving each new measurement
 * half the weight, so estimates follow a workload that changes. Scheduler thread only.
 *
 * <p>Running tasks count too, as in Dask's {@code TaskPrefix.add_exec_time}: a task reported
 * still running after more than twice its kind's average discards the average, and until the
 * next measurement the estimate is twice the longest running time seen. So a kind that turns
 * out slower than learned raises its worker's occupancy while the slow task still runs, and the
 * tasks queued behind it become worth stealing.
 *
 * <p><b>Bounded.</b> A prefix is the key up to its first {@code '-'} ({@link TaskSpec#prefixOf}),
 * so keys without one, or made of random tokens, give a prefix per task: a long-lived
 * coordinator learning each of them for good grew without bound, also with
 * {@code forgetReleased}. So at most {@link #MAX_PREFIXES} are kept; beyond that, learning a new
 * one forgets the prefix used least recently among those no worker processes a task of
 * ({@code inUse}), since a {@link WorkerLoad} counts a measured kind's tasks at its estimate and
 * needs the prefix to stay measured while it holds any. A forgotten prefix is estimated again as
 * never measured, which is what a prefix seen once deserves.
 */
final class DurationEstimates {

    /** Prefixes kept; past it the least recently used one not in use is forgotten. */
    static final int MAX_PREFIXES = 4096;
    /** How many of the least recently used prefixes one eviction looks at, so it stays O(1). */
    private static final int EVICTION_SCAN = 32;

    /** One prefix: its average, {@code NaN} if none (or discarded); the longest running time, {@code NaN} if none. */
    private static final class Kind {
        double learned = Double.NaN;
        double longestRunning = Double.NaN;
    }

    /** In access order: the eldest is the prefix used least recently. */
    private final LinkedHashMap<String, Kind> byPrefix = new LinkedHashMap<>(16, 0.75f, true);
    private final double fallback;
    private final Predicate<String> inUse;
    /** Calls of {@link #estimate}, so a test can check that placement does not walk every queued task. */
    private long estimates;

    /** @param fallback seconds assumed for a prefix never measured and without a hint */
    DurationEstimates(double fallback) {
        this(fallback, prefix -> false);
    }

    /**
     * @param fallback seconds assumed for a prefix never measured and without a hint
     * @param inUse whether a worker processes a task of the prefix now: such a prefix is never forgotten
     */
    DurationEstimates(double fallback, Predicate<String> inUse) {
        this.fallback = fallback;
        this.inUse = inUse;
    }

    /** A task of this prefix finished in {@code seconds}; returns whether the prefix was not measured before. */
    boolean record(String prefix, double seconds) {
        Kind k = byPrefix.get(prefix);
        boolean first = k == null;
        if (first) {
            k = learn(prefix);
        }
        k.learned = Double.isNaN(k.learned) ? seconds : 0.5 * k.learned + 0.5 * seconds;
        return first;
    }

    /**
     * A task of this prefix has been running for {@code seconds} and has not finished; returns
     * whether the prefix was not measured before.
     */
    boolean running(String prefix, double seconds) {
        Kind k = byPrefix.get(prefix);
        boolean first = k == null;
        if (first) {
            k = learn(prefix);
        }
        k.longestRunning = Double.isNaN(k.longestRunning) ? seconds : Math.max(k.longestRunning, seconds);
        if (!Double.isNaN(k.learned) && seconds > 2 * k.learned) {
            k.learned = Double.NaN;
        }
        return first;
    }

    /** Adds a prefix, first forgetting one if the map is full (see the class comment). */
    private Kind learn(String prefix) {
        if (byPrefix.size() >= MAX_PREFIXES) {
            Iterator<Map.Entry<String, Kind>> it = byPrefix.entrySet().iterator();
            for (int looked = 0; looked < EVICTION_SCAN && it.hasNext(); looked++) {
                if (!inUse.test(it.next().getKey())) {
                    it.remove();
                    break;
                }
            }
        }
        Kind k = new Kind();
        byPrefix.put(prefix, k);
        return k;
    }

    /**
     * Whether the prefix has been measured, finished or running. Never reverts while a worker
     * processes a task of the prefix: once true, the estimate of every task of the prefix is the
     * same and ignores its hint.
     */
    boolean measured(String prefix) {
        return byPrefix.containsKey(prefix);
    }

    /**
     * The estimate: measured if known, else twice the longest running time seen, else the hint
     * if given (negative = none), else the fallback.
     */
    double estimate(String prefix, double hint) {
        estimates++;
        Kind k = byPrefix.get(prefix);
        if (k != null) {
            if (!Double.isNaN(k.learned)) {
                return k.learned;
            }
            if (!Double.isNaN(k.longestRunning)) {
                return 2 * k.longestRunning;
            }
        }
        return hint >= 0 ? hint : fallback;
    }

    /** Forgets every prefix (the scheduler closed). */
    void clear() {
        byPrefix.clear();
    }

    /** How many prefixes are kept; for tests. */
    int prefixes() {
        return byPrefix.size();
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
