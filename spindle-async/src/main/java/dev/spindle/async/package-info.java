/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Poll-based async tasks: {@link dev.spindle.async.AsyncTask}s woken through a
 * {@link dev.spindle.async.Waker} and run on an {@link dev.spindle.async.AsyncRuntime}; the
 * {@link dev.spindle.async.Async} combinators, timers, an async channel, semaphore and promise.
 *
 * <p>A task is polled with a {@link dev.spindle.async.Context} (its waker and a cooperative
 * budget) and answers with a {@link dev.spindle.async.Poll}: ready with a value, or pending after
 * arranging for its waker to fire. {@link dev.spindle.async.AsyncRuntime#spawn} returns a
 * {@link dev.spindle.async.JoinHandle}, both a {@code Future} for plain threads and a task that
 * other tasks await without blocking a worker; {@link dev.spindle.async.AsyncPolicy} picks how the
 * workers order their tasks. {@link dev.spindle.async.AsyncChannel},
 * {@link dev.spindle.async.AsyncSemaphore} and the one-shot {@link dev.spindle.async.AsyncPromise}
 * wait without a thread, and a task dropped while it
 * waits gives back its place through {@link dev.spindle.async.Cancellable}.
 * {@link dev.spindle.async.AsyncRuntime#stats()} and
 * {@link dev.spindle.async.AsyncRuntime#busiestTasks} report what the workers and the tasks do.
 * Non-blocking TCP is in {@code dev.spindle.async.io}; {@link dev.spindle.async.IoDriver} lets a
 * runtime's idle workers serve its selectors themselves.
 */
package dev.spindle.async;
