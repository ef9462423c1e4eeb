/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * A one-shot value that any thread completes and tasks await: the async counterpart of a
 * {@link CompletableFuture} used as a one-shot (Tokio's {@code oneshot} channel).
 *
 * <pre>{@code
 * try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
 *     AsyncPromise<Integer> reply = new AsyncPromise<>();
 *     JoinHandle<String> client = rt.spawn(Async.map(reply, r -> "got " + r)); // pending until completed
 *     rt.spawn(cx -> {                                 // another task answers, once
 *         reply.complete(42);
 *         return Poll.ready(null);
 *     });
 *     client.get();                                    // "got 42"
 * }
 * }</pre>
 *
 * <p>Awaiting it is polling it, as for a {@link JoinHandle} (which it is): pending, with the
 * poller's waker registered, until the first of {@link #complete}, {@link #completeExceptionally}
 * or {@link #cancel} gives it its outcome; then ready with the value, or throwing as a handle
 * does ({@link java.util.concurrent.CompletionException} with the cause, or
 * {@link CancellationException}). Threads outside a runtime use {@link #get()} or
 * {@link #toCompletableFuture()}.
 *
 * <p><b>Exactly one outcome.</b> Of any number of racing {@code complete},
 * {@code completeExceptionally} and {@code cancel} calls, one wins and returns {@code true}; the
 * others return {@code false} and change nothing. Every task awaiting the promise is woken after
 * the outcome is recorded: once, or twice if it polled the promise again after several other
 * tasks had registered (a waiter looks for its own earlier registration among the newest few
 * only, to keep registering O(1); the second wake is a spurious one, which a task tolerates).
 *
 * <p><b>Cost.</b> The promise is the only allocation (32 bytes with compressed references): no
 * channel, lock or queue. Completing it takes two atomic operations, plus a third and the
 * waker's wake-up when a task already waits. {@link #wakeCount()} stays 0: no task is behind it.
 *
 * <p><b>Cancellation.</b> Abandoning a task that awaits a promise (a {@link Async#timeout}, a
 * cancelled {@link JoinHandle}) leaves its waker registered until a later registration prunes it:
 * a waker whose task is done, or whose combinator dropped it, is stale, and registrations unlink
 * stale entries as they go (amortised O(1) each; see {@link JoinHandle}'s implementation notes),
 * so a promise that many short-lived tasks await and that nobody completes holds a number of
 * nodes in proportion to its live awaiters (at most about twice as many, and a few more), not
 * one per task that ever awaited it. A completion that finds
 * a stale waker still registered wakes a task that is gone, which does nothing.
 * {@link #cancel} is the producer's or a consumer's decision that no value will come: awaiting
 * tasks are woken and throw {@link CancellationException}.
 *
 * @param <T> the value's type; {@code null} is a value like any other
 */
public final class AsyncPromise<T> extends JoinHandle<T> {

    /*
     * Implementation notes. The outcome, the result and the waiters are JoinHandle's (see its
     * overview): one CAS records the outcome, and the winner releases the waiter stack. The
     * handle's protocol writes the result before that CAS and relies on there being a single
     * thread that completes with a value (the task's worker). A promise has any number, so
     * completers first claim the right to write the result with a CAS of the run bits, which a
     * promise does not otherwise use (OPEN -> CLAIMED); only the claimer writes the result and
     * then tries the outcome CAS. cancel() writes no result and does not claim: it may win the
     * outcome between a claim and its outcome CAS; the claimer then loses, clears the result it
     * wrote (nobody reads the result of a cancelled handle) and returns false.
     */

    /** The run bits of an unclaimed promise. */
    private static final long OPEN = 0;
    /** The run bits once a {@code complete} or {@code completeExceptionally} call claimed it. */
    private static final long CLAIMED = 1;

    /** An incomplete promise. */
    public AsyncPromise() {
        super(OPEN);
    }

    /**
     * Completes the promise with {@code value} unless it has an outcome already, and wakes the
     * tasks (and threads) waiting for it. May be called from any thread.
     *
     * @param value the value; may be {@code null}
     * @return {@code true} if this call completed the promise, {@code false} if it had been
     *     completed, failed or cancelled before (the value is then dropped)
     */
    public boolean complete(T value) {
        return claim() && complete(VALUE, value, false);
    }

    /**
     * Completes the promise with {@code error} unless it has an outcome already: awaiting tasks
     * throw a {@link java.util.concurrent.CompletionException} with it as the cause, {@link #get()}
     * an {@link java.util.concurrent.ExecutionException}. May be called from any thread.
     *
     * @param error the failure
     * @return {@code true} if this call completed the promise, {@code false} if it had an outcome
     *     before
     * @throws NullPointerException if {@code error} is null
     */
    public boolean completeExceptionally(Throwable error) {
        Objects.requireNonNull(error, "error");
        return claim() && complete(FAILED, error, false);
    }

    /** OPEN → CLAIMED, once; {@code false} if another completer claimed it or it is done. */
    private boolean claim() {
        for (;;) {
            long s = word();
            if ((s & RUN_MASK) != OPEN || (s & OUTCOME_MASK) != 0) {
                return false;
            }
            if (casWord(s, (s & ~RUN_MASK) | CLAIMED)) {
                return true;
            }
        }
    }

    /**
     * Cancels the promise unless it has an outcome already: awaiting tasks are woken and throw
     * {@link CancellationException}, and later completions return {@code false}.
     *
     * @param mayInterruptIfRunning ignored: nothing runs
     * @return whether this call cancelled it
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return super.cancel(mayInterruptIfRunning);
    }

    /** Nothing to retire: no task, no queue. */
    @Override
    void retireCancelled() {
    }

    @Override
    public String toString() {
        return "AsyncPromise[" + (isDone() ? "done" : "pending") + "]";
    }
}
