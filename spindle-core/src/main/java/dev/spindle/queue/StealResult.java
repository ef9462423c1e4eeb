/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The outcome of a steal: the queue was {@linkplain #isEmpty() empty}, the thief lost a race and
 * may {@linkplain #isRetry() retry}, or it {@linkplain #isSuccess() succeeded} and holds a
 * {@linkplain #value() value}.
 *
 * <pre>{@code
 * StealResult<Runnable> r;
 * do {
 *     r = deque.steal();
 * } while (r.isRetry());
 * if (r.isSuccess()) r.value().run();
 * }</pre>
 *
 * @param <T> the element type
 */
public final class StealResult<T> {

    private static final StealResult<?> EMPTY = new StealResult<>(null, Kind.EMPTY);
    private static final StealResult<?> RETRY = new StealResult<>(null, Kind.RETRY);

    private enum Kind { EMPTY, RETRY, SUCCESS }

    private final T value;
    private final Kind kind;

    private StealResult(T value, Kind kind) {
        this.value = value;
        this.kind = kind;
    }

    /**
     * The result for a queue that was empty (one shared instance).
     *
     * @param <T> the queue's element type
     * @return the empty result
     */
    @SuppressWarnings("unchecked")
    public static <T> StealResult<T> empty() {
        return (StealResult<T>) EMPTY;
    }

    /**
     * The result for a steal that lost the race for the element to another thread; trying
     * again may succeed (one shared instance).
     *
     * @param <T> the queue's element type
     * @return the retry result
     */
    @SuppressWarnings("unchecked")
    public static <T> StealResult<T> retry() {
        return (StealResult<T>) RETRY;
    }

    /**
     * The result for a steal that took an element.
     *
     * @param <T> the queue's element type
     * @param value the element taken
     * @return a success carrying {@code value}
     * @throws NullPointerException if {@code value} is null
     */
    public static <T> StealResult<T> success(T value) {
        return new StealResult<>(Objects.requireNonNull(value, "value"), Kind.SUCCESS);
    }

    /** {@return whether the queue was empty} */
    public boolean isEmpty() {
        return kind == Kind.EMPTY;
    }

    /** {@return whether the steal lost a race and may be tried again} */
    public boolean isRetry() {
        return kind == Kind.RETRY;
    }

    /** {@return whether the steal took an element} */
    public boolean isSuccess() {
        return kind == Kind.SUCCESS;
    }

    /**
     * Returns the stolen element.
     *
     * @return the element taken
     * @throws NoSuchElementException if this result is not a success
     */
    public T value() {
        if (kind != Kind.SUCCESS) {
            throw new NoSuchElementException("steal result is " + kind + ", not a success");
        }
        return value;
    }

    /** {@return the stolen element, or {@code null} if this result is not a success} */
    public T valueOrNull() {
        return value;
    }

    @Override
    public String toString() {
        return kind == Kind.SUCCESS ? "StealResult[success: " + value + "]" : "StealResult[" + kind + "]";
    }
}
