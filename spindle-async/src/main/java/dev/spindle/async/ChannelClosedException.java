/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * Thrown (from {@code poll}) by an {@link AsyncChannel} operation that cannot complete because
 * the channel was closed: a send to a closed channel, or a receive from a closed channel that has
 * no values left.
 */
public final class ChannelClosedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * With a message saying which operation failed.
     *
     * @param message the detail message, naming the operation
     */
    public ChannelClosedException(String message) {
        super(message);
    }
}
