/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.util.function.IntPredicate;

/**
 * What a pool's lifecycle ({@code PoolCore} in {@code dev.spindle.pool}) needs from its parking
 * protocol. Not part of the public API: the package is exported only to Spindle's own modules.
 */
public interface IdleControl {

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
