/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.NoSuchElementException;

/**
 * The answer of one {@link AsyncTask#poll poll}: ready with a value, or pending.
 *
 * <p>A task that answers pending must first have arranged for its {@link Waker} to be woken
 * when it can make progress (registered it with a timer, a channel, a socket), or woken it
 * itself; otherwise nothing will poll it again.
 *
 * <pre>{@code
 * Poll<String> p = Poll.ready("done");
 * if (p.isReady()) System.out.println(p.value());
 * Poll<String> later = Poll.pending();
 * }</pre>
 *
 * @param <T> the value's type
 */
public final class Poll<T> {

    private static final Poll<?> PENDING = new Poll<>(null, false);
    // Immutable, so one instance serves every ready(null): the Void-valued operations (a send,
    // a map to null, a spawned task's end) answer it on every completion.
    private static final Poll<?> READY_NULL = new Poll<>(null, true);

    private final T value;
    private final boolean ready;

    private Poll(T value, boolean ready) {
        this.value = value;
        this.ready = ready;
    }

    /**
     * Ready with {@code value} (which may be {@code null}; ready with null is one shared instance).
     *
     * @param <T> the value's type
     * @param value the task's result, may be {@code null}
     * @return a ready poll holding {@code value}
     */
    @SuppressWarnings("unchecked")
    public static <T> Poll<T> ready(T value) {
        return value == null ? (Poll<T>) READY_NULL : new Poll<>(value, true);
    }

    /**
     * Pending: the task will be polled again after its waker fires. One shared instance.
     *
     * @param <T> the result type of the task
     * @return the pending poll
     */
    @SuppressWarnings("unchecked")
    public static <T> Poll<T> pending() {
        return (Poll<T>) PENDING;
    }

    /**
     * Whether this is a value.
     *
     * @return {@code true} if the task completed with {@link #value()}
     */
    public boolean isReady() {
        return ready;
    }

    /**
     * Whether the task is still pending.
     *
     * @return {@code true} if the task has not completed and has arranged to be woken
     */
    public boolean isPending() {
        return !ready;
    }

    /**
     * The value.
     *
     * @return the task's result (may be {@code null})
     * @throws NoSuchElementException if this is pending
     */
    public T value() {
        if (!ready) {
            throw new NoSuchElementException("the poll is pending: there is no value yet");
        }
        return value;
    }

    @Override
    public String toString() {
        return ready ? "Ready[" + value + "]" : "Pending";
    }
}
