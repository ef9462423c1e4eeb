/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.HashMap;
import java.util.Map;

/**
 * One worker's occupancy kept as running totals: the seconds of work processing on it, without
 * walking its tasks. Scheduler thread only.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>Occupancy is the sum of {@link DurationEstimates#estimate} over the tasks processing on the
 * worker. Walking the tasks on every placement made submitting a graph of n tasks O(n^2) (the
 * defect behind issue 17); Dask keeps a running total. A plain running total of seconds would
 * drift as estimates change (every finished task moves its kind's average), so the totals here
 * are kept in units that never change, and the seconds are derived from them when asked:
 *
 * <ul>
 *   <li>Per key prefix, a {@link Kind}: the number of tasks, how many of them have no duration
 *       hint, and the sum of the hints of the others in nanoseconds (exact: see {@link Nanos}).
 *   <li>A prefix never measured is estimated per task: its hint, else the fallback. Those tasks
 *       are summed into two worker-wide totals, {@link #guessedHintNanos} and
 *       {@link #guessedUnhinted}, which no estimate change touches.
 *   <li>A measured prefix is estimated per kind, one value for all its tasks (the hint no longer
 *       counts), so it contributes {@code count x estimate}; those kinds are in {@link #measured}.
 * </ul>
 *
 * <p>Invariant: every kind here is in {@link #measured} exactly when its prefix is measured, and
 * otherwise its counts are included in the guessed totals. Being measured never reverts (see
 * {@link DurationEstimates#measured}), so the one transition, {@link #kindMeasured}, moves the
 * kind's counts out of the guessed totals once; the scheduler calls it on every worker when
 * {@link DurationEstimates} reports a prefix measured for the first time. Adding, removing and
 * that transition are O(1); {@link #seconds} is O(measured kinds processing here), which is the
 * number of distinct task kinds in flight on the worker, not the number of tasks.
 */
final class WorkerLoad {

    /** The tasks of one prefix processing on this worker. */
    private static final class Kind {
        int count;
        int unhinted;
        final Nanos hintNanos = new Nanos();
    }

    /**
     * A sum of hints in nanoseconds, exact however many there are: {@code carries * 2^64 + low},
     * {@code low} read unsigned. A hint may be up to {@code Long.MAX_VALUE} nanoseconds
     * ({@link TaskSpec.Builder#durationHint}), so two of them overflowed a {@code long} sum, which
     * wrapped negative: the worker holding them looked the least loaded, and every task placed
     * after them queued behind them. Wrapping alone stays exact (every hint added is taken away
     * again), so counting the wraps is all that the seconds need.
     */
    private static final class Nanos {
        long low;
        long carries;

        void add(long nanos) {
            long sum = low + nanos;
            if (Long.compareUnsigned(sum, low) < 0) {
                carries++;
            }
            low = sum;
        }

        void subtract(long nanos) {
            long difference = low - nanos;
            if (Long.compareUnsigned(difference, low) > 0) {
                carries--;
            }
            low = difference;
        }

        void subtract(Nanos other) {
            subtract(other.low);
            carries -= other.carries;
        }

        double seconds() {
            double unsignedLow = low >= 0 ? low : (low >>> 1) * 2.0 + (low & 1);
            return (carries * 0x1p64 + unsignedLow) / 1e9;
        }
    }

    private final Map<String, Kind> kinds = new HashMap<>();
    private final Map<String, Kind> measured = new HashMap<>();
    private final Nanos guessedHintNanos = new Nanos();
    private int guessedUnhinted;

    /**
     * A task of {@code prefix} starts processing here.
     *
     * @param hintNanos the task's duration hint, negative for none
     * @param prefixMeasured whether {@link DurationEstimates#measured} holds for the prefix now
     */
    void add(String prefix, long hintNanos, boolean prefixMeasured) {
        Kind k = kinds.get(prefix);
        if (k == null) {
            k = new Kind();
            kinds.put(prefix, k);
            if (prefixMeasured) {
                measured.put(prefix, k);
            }
        }
        k.count++;
        if (hintNanos < 0) {
            k.unhinted++;
        } else {
            k.hintNanos.add(hintNanos);
        }
        if (!measured.containsKey(prefix)) {
            if (hintNanos < 0) {
                guessedUnhinted++;
            } else {
                guessedHintNanos.add(hintNanos);
            }
        }
    }

    /** A task added with the same arguments stops processing here. */
    void remove(String prefix, long hintNanos) {
        Kind k = kinds.get(prefix);
        if (k == null) {
            throw new IllegalStateException("no task of kind '" + prefix + "' is processing here");
        }
        boolean guessed = !measured.containsKey(prefix);
        k.count--;
        if (hintNanos < 0) {
            k.unhinted--;
            guessedUnhinted -= guessed ? 1 : 0;
        } else {
            k.hintNanos.subtract(hintNanos);
            guessedHintNanos.subtract(guessed ? hintNanos : 0);
        }
        if (k.count == 0) {
            kinds.remove(prefix);
            measured.remove(prefix);
        }
    }

    /** Whether a task of {@code prefix} processes here. */
    boolean holds(String prefix) {
        return kinds.containsKey(prefix);
    }

    /** The prefix has just been measured for the first time: its tasks now count at its estimate. */
    void kindMeasured(String prefix) {
        Kind k = kinds.get(prefix);
        if (k != null && measured.putIfAbsent(prefix, k) == null) {
            guessedUnhinted -= k.unhinted;
            guessedHintNanos.subtract(k.hintNanos);
        }
    }

    /** The occupancy in seconds under the current estimates. */
    double seconds(DurationEstimates durations) {
        double occ = guessedHintNanos.seconds() + guessedUnhinted * durations.fallback();
        for (Map.Entry<String, Kind> e : measured.entrySet()) {
            occ += e.getValue().count * durations.estimate(e.getKey(), -1);
        }
        return occ;
    }
}
