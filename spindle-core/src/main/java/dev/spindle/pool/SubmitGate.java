/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The intake of submissions from outside a pool: one atomic word holding a closed bit and the
 * number of external submitters in flight.
 *
 * <p>A submitter {@linkplain #enter enters} (one increment, which also reads the closed bit),
 * offers its task, and {@linkplain #leave leaves}. Shutdown {@linkplain #close closes} the gate;
 * from then on {@code enter} fails, and a submitter that entered before is still counted, so
 * {@code shutdownNow} can {@linkplain #awaitNoneInFlight wait} for its offer to land before it
 * drains the queues, and a graceful shutdown terminates only once the gate is
 * {@linkplain #closedAndEmpty closed with nobody in flight}, read in one word. The
 * last submitter to leave a closed gate is told so, to re-check for termination.
 */
final class SubmitGate {

    private static final long CLOSED = 1L << 62;
    private static final long COUNT = CLOSED - 1;

    private final AtomicLong ctl = new AtomicLong();

    /**
     * Counts the caller in.
     *
     * @return {@code false} if the gate is closed; the caller is counted all the same and must
     *     {@link #leave} before it rejects its task
     */
    boolean enter() {
        return (ctl.getAndIncrement() & CLOSED) == 0;
    }

    /** Counts the caller out; {@code true} if the gate is closed and nobody is left in it. */
    boolean leave() {
        long after = ctl.decrementAndGet();
        return (after & CLOSED) != 0 && (after & COUNT) == 0;
    }

    /** Closes the gate for good; idempotent. */
    void close() {
        ctl.getAndUpdate(c -> c | CLOSED);
    }

    /**
     * Whether the gate is closed and no submitter is between {@link #enter} and {@link #leave}:
     * one read of the word, so no submission can land after it answered {@code true} (a later
     * {@code enter} finds the gate closed). A graceful shutdown's test for quiet.
     */
    boolean closedAndEmpty() {
        return ctl.get() == CLOSED;
    }

    /** Whether no submitter is between {@link #enter} and {@link #leave}. */
    boolean noneInFlight() {
        return (ctl.get() & COUNT) == 0;
    }

    /** Spins until {@link #noneInFlight}: an admitted offer is a few instructions away. */
    void awaitNoneInFlight() {
        while (!noneInFlight()) {
            Thread.onSpinWait();
        }
    }
}
