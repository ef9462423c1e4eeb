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
    FULL
}
