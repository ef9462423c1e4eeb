/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * The constants of the stealing policy. Times are seconds, bandwidth bytes per second.
 *
 * @param bandwidth the estimated transfer bandwidth between workers
 * @param latency the estimated latency of one transfer
 * @param minDuration tasks expected to run at most this long are never stolen
 * @param saturatedOccupancy a worker is saturated only above this many seconds of work per thread
 */
record BalanceParams(double bandwidth, double latency, double minDuration, double saturatedOccupancy) {

    /** Levels run 0..LEVELS-1; a task whose level is LEVELS or more is never stolen. */
    static final int LEVELS = 15;

    /** A saturated worker has more than this multiple of the average per-thread occupancy. */
    static final double SATURATED_FACTOR = 1.9;

    /** Without a saturated worker, up to this many of the busiest workers are victims. */
    static final int FALLBACK_VICTIMS = 10;

    BalanceParams {
        if (!(bandwidth > 0) || latency < 0 || minDuration < 0 || saturatedOccupancy < 0) {
            throw new IllegalArgumentException("bad balance parameters: bandwidth " + bandwidth
                    + ", latency " + latency + ", minDuration " + minDuration
                    + ", saturatedOccupancy " + saturatedOccupancy);
        }
    }

    /**
     * Seconds to bring the dependencies a worker lacks to it: their bytes over the bandwidth, plus
     * one latency when anything must move.
     */
    double transferCost(java.util.List<BalanceSnapshot.Dep> deps, int worker) {
        double bytes = 0;                     // not a long: sizes near Long.MAX_VALUE wrapped to a negative sum
        boolean missing = false;
        for (BalanceSnapshot.Dep d : deps) {
            if (!d.holders().contains(worker)) {
                bytes += d.bytes();
                missing = true;
            }
        }
        return missing ? latency + bytes / bandwidth : 0.0;
    }

    /**
     * The cost level of moving a task: 0 without dependencies, else
     * {@code round(log2((all dependency bytes / bandwidth + latency) / duration) + 6)}, at least 1.
     * Cheap-to-move, slow tasks get low levels and are stolen first.
     */
    int level(double duration, java.util.List<BalanceSnapshot.Dep> deps) {
        if (deps.isEmpty()) {
            return 0;
        }
        double bytes = 0;                     // as in transferCost
        for (BalanceSnapshot.Dep d : deps) {
            bytes += d.bytes();
        }
        double ratio = (bytes / bandwidth + latency) / duration;
        if (ratio <= 0) {
            return 1;
        }
        long level = Math.round(Math.log(ratio) / Math.log(2) + 6);
        return (int) Math.max(1, Math.min(LEVELS, level));
    }
}
