/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * A computation that advances in steps: each {@link #poll} runs until the task completes
 * ({@link Poll#ready}) or would have to wait ({@link Poll#pending}), in which case it has
 * arranged for {@link Context#waker()} to be woken when it can go on.
 *
 * <p>A runtime never polls one task from two threads at once, and a poll happens-after the
 * previous poll of the same task, so a task's fields need no synchronisation. A task is not
 * polled again after it returned ready.
 *
 * <pre>{@code
 * // counts to three, yielding its thread between steps
 * AsyncTask<Integer> counter = new AsyncTask<>() {
 *     int n;
 *     public Poll<Integer> poll(Context cx) {
 *         if (++n == 3) return Poll.ready(n);
 *         cx.waker().wake();                   // poll me again soon
 *         return Poll.pending();
 *     }
 * };
 * }</pre>
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface AsyncTask<T> {

    /**
     * Advances the task.
     *
     * @param cx the polling context: the task's waker and its cooperative budget
     * @return ready with the result, or pending after arranging a wake-up; never {@code null}
     *     (a runtime fails a task whose poll returns null with a {@link NullPointerException})
     */
    Poll<T> poll(Context cx);
}
