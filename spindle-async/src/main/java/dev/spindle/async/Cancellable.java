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
 * deadline passes), and pass a cancel on to the children they hold.
 *
 * <p>{@link #cancel()} is called between polls (never during one), may be called more than
 * once, and is never followed by another poll.
 */
public interface Cancellable {

    /** Releases what the pending task holds; idempotent. */
    void cancel();
}
