/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;

/**
 * The result of a spawned computation: a {@link Future} that can also be {@linkplain #join()
 * joined} without checked exceptions, as in fork/join code.
 *
 * <pre>{@code
 * static long fib(WorkStealingPool pool, int n) {
 *     if (n < 2) return n;
 *     Task<Long> left = pool.spawn(() -> fib(pool, n - 1));
 *     long right = fib(pool, n - 2);
 *     return left.join() + right;
 * }
 * }</pre>
 *
 * <p>Joining from a worker thread of the pool that runs the task helps instead of blocking: it
 * runs the awaited task itself if it is still queued locally (or next in line for a thief),
 * and otherwise runs the awaited task's own subtasks until it completes; for the pool's other
 * work it lets the pool compensate with a spare worker (see {@code WorkStealingPool},
 * "Fork/join").
 *
 * @param <T> the result type
 */
public interface Task<T> extends Future<T> {

    /**
     * Waits for the result and returns it.
     *
     * @return the value the computation returned
     * @throws CompletionException wrapping the exception the computation threw (the same
     *     instance, as the cause, for every join); a {@code CompletionException} the
     *     computation threw itself (as a join of a failed subtask inside it throws) is rethrown
     *     as it is, not wrapped again, as {@link CompletableFuture#join()} does
     * @throws CancellationException if the task was cancelled
     */
    T join();

    /**
     * Returns a {@link CompletableFuture} completed with this task's outcome (a value, the
     * computation's exception, or a {@link CancellationException}). Completing or cancelling the
     * returned future does not affect the task.
     *
     * @return a future completed when this task completes, with the same outcome
     */
    CompletableFuture<T> toCompletableFuture();
}
