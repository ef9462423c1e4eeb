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

    /** The queue was empty. */
    @SuppressWarnings("unchecked")
    public static <T> StealResult<T> empty() {
        return (StealResult<T>) EMPTY;
    }

    /** Another thread won the race for the element; trying again may succeed. */
    @SuppressWarnings("unchecked")
    public static <T> StealResult<T> retry() {
        return (StealResult<T>) RETRY;
    }

    /** The steal took {@code value}. */
    public static <T> StealResult<T> success(T value) {
        return new StealResult<>(Objects.requireNonNull(value, "value"), Kind.SUCCESS);
    }

    public boolean isEmpty() {
        return kind == Kind.EMPTY;
    }

    public boolean isRetry() {
        return kind == Kind.RETRY;
    }

    public boolean isSuccess() {
        return kind == Kind.SUCCESS;
    }

    /**
     * Returns the stolen element.
     *
     * @throws NoSuchElementException if this result is not a success
     */
    public T value() {
        if (kind != Kind.SUCCESS) {
            throw new NoSuchElementException("steal result is " + kind + ", not a success");
        }
        return value;
    }

    /** Returns the stolen element, or {@code null} if this result is not a success. */
    public T valueOrNull() {
        return value;
    }

    @Override
    public String toString() {
        return kind == Kind.SUCCESS ? "StealResult[success: " + value + "]" : "StealResult[" + kind + "]";
    }
}
