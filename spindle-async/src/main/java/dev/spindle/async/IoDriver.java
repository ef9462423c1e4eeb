/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * An event source that the idle workers of an {@link AsyncRuntime} drive themselves instead of
 * a thread of its own: the reactors of a {@link dev.spindle.async.io.ReactorGroup#openDriven
 * driven reactor group} implement it, and {@link AsyncRuntime.Builder#driveIo} hands them to
 * the runtime. A worker with nothing to run waits in {@link #select}, then wakes the tasks whose
 * events are ready ({@link #dispatch}) on its own thread, so they run there without a hand-off.
 *
 * <p>Contract: {@link #select} and {@link #dispatch} are called by one thread at a time (the
 * runtime hands each driver to one worker at a time, and that hand-over is a volatile write and
 * read, so each call happens-before the next); {@link #wakeup} by any thread at any moment. A
 * wake-up is sticky, as {@link java.nio.channels.Selector#wakeup()} is: one that comes while no
 * {@code select} is in progress makes the next one return at once. That is what keeps a wake-up
 * of a worker inside {@code select} from being lost.
 */
public interface IoDriver {

    /**
     * Claims this driver for one runtime; called once, when the runtime is built.
     *
     * @throws IllegalStateException if it is claimed already, or has a thread of its own
     */
    void claim();

    /**
     * Gives back a claim whose runtime was never built or has terminated: {@code build()} claims
     * its drivers one after another, and when one cannot be claimed it gives back those it had
     * claimed, so that they can still be handed to a runtime; a runtime gives its drivers back
     * once every worker has exited (nobody selects in them any more). Called only after a
     * successful {@link #claim()}, at most once for it. The default does nothing, for a driver that keeps no claim.
     */
    default void unclaim() {
    }

    /**
     * Waits until an event is ready, {@link #wakeup} is called (or was, since the last
     * {@code select}), or {@code timeoutNanos} have passed: {@code 0} does not wait, a negative
     * value waits without a limit.
     *
     * @param timeoutNanos the longest wait in nanoseconds; 0 for none, negative for no limit
     * @return how many events are ready for {@link #dispatch} (possibly 0), or {@code -1} once
     *     the driver is closed: it will never have an event again
     */
    int select(long timeoutNanos);

    /**
     * Wakes the tasks waiting for the events the last {@link #select} found, on this thread.
     * It should not throw; if it does (or {@link #select} does), the runtime reports the error to
     * the worker's uncaught-exception handler and drives this driver again after a short pause,
     * so the events it did not dispatch must stay ready for a later {@link #select}.
     */
    void dispatch();

    /** Makes the {@link #select} in progress, or else the next one, return at once. Any thread. */
    void wakeup();
}
