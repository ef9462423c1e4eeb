/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

/** The sizes at which {@link Workloads} builds each workload. */
public enum Size {
    /** Milliseconds per run: for unit tests. */
    TINY,
    /**
     * The quick harness's sizes. At present the same as {@link #FULL}: the harness repeats short
     * runs instead of shrinking long ones. Kept apart so the two can diverge.
     */
    QUICK,
    /** The benchmark sizes (fib 30, fib 40 with cutoff, nqueens 12, 3.7M-node UTS, 10,000 spawns, ...). */
    FULL;

    /**
     * The figure for this size, for the registries' tables of sizes ({@link Workloads} and the
     * actor workloads').
     *
     * @param tiny the figure at {@link #TINY}
     * @param quick the figure at {@link #QUICK}
     * @param full the figure at {@link #FULL}
     * @return the one of the three that belongs to this size
     */
    public int pick(int tiny, int quick, int full) {
        switch (this) {
            case TINY:
                return tiny;
            case QUICK:
                return quick;
            default:
                return full;
        }
    }
}
