/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The result of a {@linkplain AsyncRuntime#spawn spawned} task.
 *
 * <p>It is a {@link Future}, for threads outside the runtime ({@link #get()} blocks), and an
 * {@link AsyncTask}, for other tasks: polling a handle registers the poller's waker and is ready
 * once the spawned task is done, so tasks join tasks without blocking a worker.
 *
 * <pre>{@code
 * try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
 *     JoinHandle<Integer> child = rt.spawn(cx -> Poll.ready(21));
 *     int v = rt.run(cx -> {                      // a task awaiting another
 *         Poll<Integer> p = child.poll(cx);       // pending until child is done
 *         return p.isReady() ? Poll.ready(p.value() * 2) : Poll.pending();
 *     });                                         // v == 42
 *     child.get();                                // 21, from a plain thread
 * }
 * }</pre>
 *
 * <p><b>Outcomes.</b> If the task returns ready, the handle completes with its value. If its
 * poll throws, the handle completes exceptionally ({@link #get()} throws an
 * {@link ExecutionException} with that cause); so it does, with a {@link NullPointerException},
 * if its poll returns {@code null}. After {@link #cancel} the task is not polled again and the
 * handle is cancelled ({@link CancellationException}). If the runtime shuts down first, the
 * handle is completed with a {@link CancellationException} saying so.
 *
 * <p><b>Withdrawal.</b> A task that is cancelled, or still pending at shutdown, is also
 * {@linkplain Cancellable#cancel() cancelled itself} (if it is {@link Cancellable}), once, after
 * its last poll: a receive gives up its place in the channel (a value already handed to it goes
 * to the next receiver or back into the channel), an acquire its place or its granted permit, a
 * sleep its timer entry, exactly as when a combinator such as {@link Async#timeout} abandons
 * them.
 *
 * @param <T> the result type
 */
public final class JoinHandle<T> implements Future<T>, AsyncTask<T> {

    private final TaskCell<T> cell;
    private final CompletableFuture<T> future = new CompletableFuture<>();
    /**
     * Wakers of tasks awaiting this one, created by the first joiner (most tasks have none);
     * guarded by {@code this}; {@link #FIRED} once fired. Every path
     * that completes {@link #future} fires them afterwards, so a poller that saw the future not
     * done and registered (under the lock, before the firing) is woken.
     */
    private List<Waker> joiners;

    /** {@link #joiners} once fired: later pollers see the future done. */
    private static final List<Waker> FIRED = List.of();

    JoinHandle(TaskCell<T> cell) {
        this.cell = cell;
    }

    // ------------------------------------------------------------------ completion (runtime)

    void complete(T value) {
        future.complete(value);
        fireJoiners();
    }

    void fail(Throwable error) {
        future.completeExceptionally(error);
        fireJoiners();
    }

    /**
     * How many times the task's waker fired while the task was not done (its wake count, the
     * key of {@link AsyncPolicy#HYBRID}'s hot queue). For diagnostics and measurements.
     */
    public long wakeCount() {
        return cell.wakeCount();
    }

    /** The task's state word (see {@link TaskCell}); for tests. */
    int state() {
        return cell.state();
    }

    private void fireJoiners() {
        List<Waker> ws;
        synchronized (this) {
            ws = joiners;
            joiners = FIRED;
        }
        if (ws != null) {
            for (Waker w : ws) {
                try {
                    w.wake();
                } catch (Throwable e) {
                    // A waker must not throw. This may run on a worker (which must survive it)
                    // and every other joiner must still be woken: report it and go on.
                    AsyncRuntime.reportStray(e);
                }
            }
        }
    }

    // ------------------------------------------------------------------ AsyncTask

    /**
     * Ready with the task's value once it is done; pending (with the caller's waker registered,
     * once per waker) before.
     *
     * @throws CancellationException if the task was cancelled or the runtime shut down
     * @throws CompletionException with the task's exception as its cause, if the task failed
     */
    @Override
    public Poll<T> poll(Context cx) {
        if (!future.isDone()) {
            Waker w = cx.waker();
            synchronized (this) {
                if (joiners != FIRED) {        // not fired yet: the completion will wake w
                    if (joiners == null) {
                        joiners = new ArrayList<>(1);
                    }
                    if (!joiners.contains(w)) {
                        joiners.add(w);
                    }
                    return Poll.pending();
                }
            }
        }
        return Poll.ready(future.join());
    }

    // ------------------------------------------------------------------ Future

    /**
     * Cancels the task: it is not polled again (a poll already under way finishes), and this
     * handle completes with a {@link CancellationException}. Does nothing once the task is done.
     * A worker then retires the task and, if it is {@link Cancellable}, cancels it so that it
     * withdraws from what it waits in (see the class comment); this returns before that.
     *
     * <p>If a poll is under way and completes the task, its result is dropped, as
     * {@link java.util.concurrent.FutureTask} drops the result of a run it was cancelled during:
     * the handle already reports the cancellation. A task that must not lose what it received
     * (a channel's value) should pass it on within the poll that receives it.
     *
     * @param mayInterruptIfRunning ignored: a poll is never interrupted
     * @return whether this call cancelled the task
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        cell.cancelled = true;                 // first: no poll starts after this returns
        if (!future.completeExceptionally(new CancellationException("task cancelled"))) {
            return false;                      // done already, or cancelled by another call
        }
        fireJoiners();
        if (cell.schedule(false)) {            // idle: queue it so a worker retires it
            cell.runtime.deliverWake(cell);
        }
        return true;
    }

    @Override
    public boolean isCancelled() {
        return future.isCancelled();
    }

    @Override
    public boolean isDone() {
        return future.isDone();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        return future.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(timeout, unit);
    }

    /**
     * A {@link CompletableFuture} that completes as this handle does. Completing or cancelling
     * the returned future does not affect the task; use {@link #cancel} for that.
     */
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> f = new CompletableFuture<>();
        future.whenComplete((v, e) -> {        // e unwrapped: cancellation stays a cancellation
            if (e != null) {
                f.completeExceptionally(e);
            } else {
                f.complete(v);
            }
        });
        return f;
    }

    @Override
    public String toString() {
        return "JoinHandle[" + (future.isDone() ? "done" : "pending") + "]";
    }
}
