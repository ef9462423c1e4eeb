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
 * deadline passes), and pass a cancel on to the children they hold. An {@link AsyncRuntime}
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
 */
public interface Cancellable {

    /** Releases what the pending task holds; idempotent. */
    void cancel();
}
