/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * A task that holds a resource while pending (a timer entry, a place in a channel's or a
 * semaphore's wait queue) and can give it back when nobody will poll it again.
 *
 * <p>Java has no destructor that runs when a task is dropped, so "dropping" a task is explicit:
 * {@link Async#cancel(AsyncTask)}. The combinators of {@link Async} do it for the children they
 * abandon ({@code any} for the losers, {@code all} when a child fails, {@code timeout} when the
 * deadline passes) and for a child whose poll returned {@code null}, and pass a cancel on to
 * the children they hold. An {@link AsyncRuntime}
 * does it for the tasks it stops polling before they finished: a task whose
 * {@link JoinHandle#cancel JoinHandle was cancelled}, a task still pending when the runtime shuts
 * down, and a task whose poll returned {@code null}. Every task of {@link Async},
 * {@link AsyncChannel} and {@link AsyncSemaphore} that can wait implements this interface, and
 * so do their compositions, so a cancelled receive never swallows a value, nor a cancelled
 * acquire a permit. A hand-written task that polls such operations implements it too, passing
 * the cancel on to the operation it awaits; otherwise nothing can withdraw that operation.
 *
 * <p>{@link #cancel()} is called between polls (never during one, and after the last poll it
 * follows), may be called more than once, and is never followed by another poll. It should not
 * throw: a runtime reports what it throws to the uncaught-exception handler of the thread that
 * called it and goes on.
 *
 * <p><b>Too late to cancel.</b> A task can complete between two polls without being polled: a
 * waiting {@link AsyncChannel#send} is complete once a receiver on another thread has taken its
 * value. Cancelling it then cannot take the value back. {@link #cancelUnlessDone()} withdraws the
 * task in one step with whatever would complete it, and says when it came too late, so that a
 * combinator can report the completion instead of dropping it ({@link Async#timeout} does).
 */
public interface Cancellable {

    /** Releases what the pending task holds; idempotent. */
    void cancel();

    /**
     * Withdraws the task unless it has completed since its last poll, atomically with whatever
     * completes it. Called where {@link #cancel()} may be, under the same rules, except that a
     * {@code false} answer leaves the task live: its next poll returns its outcome (and it may
     * then still be cancelled).
     *
     * <p>The default cancels and answers {@code true}: right for a task that cannot complete
     * between polls, or whose {@link #cancel()} undoes such a completion (a cancelled receive puts
     * a value it was handed back, a cancelled acquire releases a permit it was granted). A task
     * whose completion cannot be undone, or that waits on such a task, overrides it.
     *
     * <pre>{@code
     * if (send instanceof Cancellable c && !c.cancelUnlessDone()) {
     *     send.poll(cx);        // ready: the value was delivered after all
     * }
     * }</pre>
     *
     * @return {@code true} if the task was withdrawn, as by {@link #cancel()}; {@code false} if it
     *     had completed, in which case nothing was undone
     */
    default boolean cancelUnlessDone() {
        cancel();
        return true;
    }
}
