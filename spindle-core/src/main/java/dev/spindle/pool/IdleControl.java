/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.function.IntPredicate;

/** What {@link PoolCore}'s lifecycle needs from a pool's parking protocol. */
interface IdleControl {

    /**
     * Runs {@code check} with the number of parked workers while no worker can park or be
     * woken: the quiescence test of a graceful shutdown.
     */
    boolean underLock(IntPredicate check);

    /** Wakes every parked worker for good; later parks return at once. */
    void terminate();

    /** Whether {@link #terminate()} has been called. */
    boolean isTerminated();
}
