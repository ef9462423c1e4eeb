/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * Makes a pending task runnable again. Obtained from {@link Context#waker()} while the task is
 * polled, and handed to whatever will signal progress (a timer, a channel, a selector).
 *
 * <p>{@link #wake()} may be called from any thread, any number of times, at any moment: a wake
 * while the task is being polled makes it run again after that poll returns pending; several
 * wakes before the next poll cause one poll; a wake after the task completed does nothing.
 */
@FunctionalInterface
public interface Waker {

    /** Schedules the task to be polled again; cheap, never blocks, never throws. */
    void wake();

    /**
     * Whether waking this waker can no longer matter: its task is done, or the combinator it was
     * made for (a {@link Async#select select}'s branch, a {@link Async#timeout timeout}'s inner
     * task) has dropped it. Once true, true for good. Whatever keeps wakers until some event (a
     * handle's waiters, a connection's readers) may then drop it instead of holding it, and the
     * task it reaches, until the event; the runtime's own wakers say so. Cheap, never blocks,
     * never throws.
     *
     * @return {@code true} if the waker may be dropped unwoken; {@code false} (the default) if
     *     it may still matter
     */
    default boolean expired() {
        return false;
    }
}
