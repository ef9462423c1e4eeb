/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import dev.spindle.Spindle;
import java.lang.ref.Cleaner;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The eventual result of one keyed task. It completes with the task's value, or exceptionally
 * with the task's own exception once the retry limit is spent, or with an
 * {@link IllegalStateException} when the cluster closes first (or when the task's inputs could not
 * be fetched from the workers holding them, or read from its own worker's copy, once the retry
 * limit is spent, see
 * {@link CoordinatorSettings#retries()}). Pass it as a dependency of later
 * tasks to build a graph without copying the value through the client.
 *
 * <pre>{@code
 * ClusterFuture<Integer> x = client.submit("inc-1", args -> 1 + 1);
 * ClusterFuture<Integer> y = client.submit("double-1", args -> 2 * (Integer) args.get(0), x);
 * int four = y.get();
 * }</pre>
 *
 * <p>A future belongs to the cluster whose client made it: passing it to another cluster's
 * client (as a dependency, in a graph, to {@code map} or {@code gather}) throws
 * {@link IllegalArgumentException} rather than binding to that cluster's task of the same key.
 *
 * <p>Memory: the workers keep a task's result while its future is held or a pending task needs
 * it. {@link #release()} (or {@link #close()}) says the client needs it no more, and a future
 * that becomes unreachable is released by a {@link Cleaner}, as a Dask future is when it is
 * garbage-collected. After a release this future's value is gone: {@link #get()} throws
 * {@link IllegalStateException}, and the future can no longer be a dependency. Tasks already
 * depending on it still get the value. A released task still runs: a task submitted for what it
 * does, its future dropped, is not lost.
 *
 * <p>Waiting inside a task (Dask's {@code worker_client}): a task may submit more tasks and wait
 * for them with {@link #get()} or {@link Client#gather}: a task waited for that is ready on the
 * waiting task's worker runs on the waiting thread, as a fork-join pool's join runs the task it
 * joins (a wait for another cluster's future runs nothing there; a timed wait may then return
 * later than its limit, once that task ends), and the wait is a blocking section
 * ({@link Spindle#blocking}), so the worker's pool runs its other tasks on a spare thread (at
 * most 256 at a time: more tasks waiting for tasks not yet ready may exhaust them).
 * Waiting inside a callback of a future ({@code toCompletableFuture().thenApply(...)}) is not
 * possible: callbacks run on the one thread that completes every future of the cluster, so
 * {@link #get()} there throws {@link IllegalStateException} for a future not yet done, and so do
 * {@code get} and {@code join} of a {@link #toCompletableFuture()} copy and of the stages its methods
 * make (not of one {@code CompletableFuture.allOf} makes: a wait for that there never ends) (chain
 * with {@code thenCompose}, or move the callback off that thread with an {@code *Async} stage).
 *
 * <p>{@link #cancel} ends this future with a {@link CancellationException} and releases the
 * task's value, and keeps the task from running if it has not started and no pending task needs
 * it (Dask's release of a task not yet started): it is then forgotten (and counted,
 * {@link ClusterStats#tasksCancelled}), and its inputs that nothing else needs are released on
 * their workers. A task queued on a worker is asked back from it; one that started runs to its
 * end (a running task is not interrupted), and its value is dropped then.
 *
 * <pre>{@code
 * ClusterFuture<Report> report = client.submit("report", args -> slowReport());
 * if (report.cancel(false)) {
 *     // report.get() throws CancellationException; the task runs only if a worker had started it
 * }
 * }</pre>
 *
 * @param <T> the result type
 */
public final class ClusterFuture<T> implements Future<T>, AutoCloseable {

    /** One cleaner thread for all futures; its actions only queue an event for a scheduler. */
    private static final Cleaner CLEANER = Cleaner.create();

    private final String key;
    /** Null once released, so that this future no longer keeps the value reachable. */
    private volatile CompletableFuture<T> result;
    /** The scheduler of the cluster that made this future; compared by identity only. */
    private final Object owner;
    private final Release release;
    private final Cleaner.Cleanable cleanable;
    /** Set once {@link #cancel} has cancelled this future; stays after a release. */
    private volatile boolean cancelled;
    /**
     * What {@link #cancel} completes the future with, set once, before it does: the stages that
     * the completion runs at once, before {@link #cancelled} is set, read it (see
     * {@link #isCancelled}). Only the cancel that sets it may complete the future.
     */
    private volatile CancellationException cancellation;
    private static final java.lang.invoke.VarHandle CANCELLATION;

    static {
        try {
            CANCELLATION = java.lang.invoke.MethodHandles.lookup().findVarHandle(ClusterFuture.class, "cancellation",
                    CancellationException.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private boolean casCancellation(CancellationException c) {
        return CANCELLATION.compareAndSet(this, (CancellationException) null, c);
    }

    ClusterFuture(String key, CompletableFuture<T> result, Object owner) {
        this.key = Objects.requireNonNull(key, "key");
        this.result = Objects.requireNonNull(result, "result");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.release = owner instanceof GraphScheduler scheduler
                ? new Release(scheduler, key, GraphScheduler.recordOf(result))
                : null;
        this.cleanable = release != null ? CLEANER.register(this, release) : null;
    }

    /**
     * The release action, run once: by {@link #release()}, {@link #cancel} or the cleaner. It must
     * not refer to the future, or the future would never be unreachable.
     */
    private static final class Release implements Runnable {
        private final GraphScheduler scheduler;
        private final String key;
        /**
         * The scheduler's record of the task ({@code GraphScheduler.recordOf}): a retried task that
         * submits its key again replaces the record, and this future's release or cancel is then
         * this record's, not the new one's.
         */
        private final long record;
        /**
         * Who sends the release, one word so that a {@link ClusterFuture#cancel} and a racing
         * {@link ClusterFuture#release()} (or the cleaner) agree on it: {@link #OPEN}, the action
         * will, plainly; {@link #CANCEL}, a cancel has claimed it and is completing the future;
         * {@link #DEFERRED}, the action ran meanwhile and left the send to that cancel;
         * {@link #CANCELLED}, the cancel completed the future and the action, still to run, sends
         * the cancel; {@link #RAN}, sent. Two rules: a cancel whose claim finds the action run
         * returns false, since that release came first and the task runs; and the scheduler hears
         * of a cancel only once the cancel completed the future. Before, a flag the cancel set and
         * the action read let the action read it unset and release the task plainly (it ran) while
         * the cancel returned true; and an action that read it set let the scheduler forget the
         * task and complete the future with its own exception before the cancel did, which then
         * returned false for a task it had cancelled.
         */
        private volatile int state;
        private static final int OPEN = 0;
        private static final int CANCEL = 1;
        private static final int DEFERRED = 2;
        private static final int CANCELLED = 3;
        private static final int RAN = 4;
        private static final java.lang.invoke.VarHandle STATE;

        static {
            try {
                STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Release.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        Release(GraphScheduler scheduler, String key, long record) {
            this.scheduler = scheduler;
            this.key = key;
            this.record = record;
        }

        private boolean casState(int expected, int update) {
            return STATE.compareAndSet(this, expected, update);
        }

        /** A cancel claims the send; false if the action ran first (a plain release, sent). */
        boolean claimForCancel() {
            return casState(OPEN, CANCEL);
        }

        /**
         * The claiming cancel has completed the future ({@code cancelled}) or found it completed:
         * hands the send back to the action, or makes it if the action ran meanwhile.
         */
        void cancelSettled(boolean cancelled) {
            if (!casState(CANCEL, cancelled ? CANCELLED : OPEN)) {
                state = RAN;                  // DEFERRED: the action ran and left it to this cancel
                scheduler.releaseFuture(key, record, cancelled);
            }
        }

        @Override
        public void run() {
            if (casState(OPEN, RAN)) {
                scheduler.releaseFuture(key, record, false);
            } else if (!casState(CANCEL, DEFERRED)) {
                state = RAN;                  // CANCELLED: the cancel completed the future
                scheduler.releaseFuture(key, record, true);
            }
        }
    }

    /**
     * Checks that this future was made by the cluster of {@code expected} (a key alone would
     * silently bind to another cluster's task of the same key).
     *
     * @param use what the future is being used for, for the message
     * @throws IllegalArgumentException naming the key if it belongs to another cluster
     */
    void requireOwner(Object expected, String use) {
        if (owner != expected) {
            throw new IllegalArgumentException("the future for key '" + key + "' belongs to another cluster's "
                    + "client and cannot be used " + use + " here (pass a future made by this client)");
        }
    }

    /**
     * Checks that this future has not been released or cancelled (its value may be gone from the
     * workers, or never computed).
     *
     * @throws IllegalArgumentException naming the key if it was released or cancelled
     */
    void requireHeld(String use) {
        CompletableFuture<T> r = result;
        if (r == null) {
            throw new IllegalArgumentException("the future for key '" + key + "' was released and cannot be used "
                    + use);
        }
        if (r.isCancelled()) {
            throw new IllegalArgumentException("the future for key '" + key + "' was cancelled and cannot be used "
                    + use);
        }
    }

    /**
     * The task's key.
     *
     * @return the key the task was submitted or scattered under
     */
    public String key() {
        return key;
    }

    /**
     * Tells the cluster that this client no longer needs the value: once no pending task needs
     * it either, the workers drop it. The task still runs if it has not yet (see {@link #cancel}
     * to keep it from running). Idempotent; {@link #get()} afterwards throws.
     */
    public void release() {
        result = null;
        if (cleanable != null) {
            cleanable.clean();                // runs the release once, and unregisters it
        }
    }

    /** The same as {@link #release()}. */
    @Override
    public void close() {
        release();
    }

    private CompletableFuture<T> held() {
        CompletableFuture<T> r = result;
        if (r == null) {
            throw new IllegalStateException("the future for key '" + key + "' was released; its value is gone");
        }
        return r;
    }

    /**
     * A copy of the result as a {@link CompletableFuture}; completing the copy changes nothing here.
     *
     * @return a new future that completes with this task's value or failure; its {@code get} and
     *     {@code join} throw {@link IllegalStateException} in a callback of a future of the cluster
     *     while it is not done (see the class comment)
     * @throws IllegalStateException if this future was released
     */
    public CompletableFuture<T> toCompletableFuture() {
        return held().copy();
    }

    /**
     * Cancels the task: this future completes with a {@link CancellationException} at once (the
     * stages of copies made by {@link #toCompletableFuture()} run on this thread then), the task's
     * value is released as by {@link #release()}, and the task is forgotten without running if it
     * has not started and no pending task needs it; its inputs that nothing else needs are released
     * on their workers. A task sent to a worker is asked back from it, and forgotten if the worker
     * had not started it (until its answer the task counts as processing there); one that started
     * runs to its end: it is not interrupted, whatever {@code mayInterruptIfRunning} says, and its
     * value is dropped then.
     * A task that other pending tasks need still runs for them (so does one that a retried task
     * submitted again while the future its earlier attempt got is held, until that one is
     * released). Afterwards {@link #get()} throws
     * {@link CancellationException} and the future can no longer be a dependency.
     *
     * <p>A {@link #release()} on another thread racing this cancel is ordered with it: either the
     * release comes first, its task runs as a released one's, and this cancel returns
     * {@code false}; or the cancel comes first and returns {@code true}, and the release finds
     * nothing more to do. So a {@code true} return keeps from running a task that had not started
     * when its worker answered the request to give it back (not necessarily when this call
     * returned: a task already sent may start before the request reaches its worker, and then runs
     * to its end, its value dropped), as {@link java.util.concurrent.Future#cancel} says of a task
     * not started, except where a pending task needs it.
     *
     * @param mayInterruptIfRunning ignored: a task that runs on a worker is not interrupted
     * @return {@code true} if this call cancelled the future; {@code false} if it had completed,
     *     been cancelled or been released before (a release racing this call counts as before
     *     where its action ran first)
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        CompletableFuture<T> r = result;
        if (r == null || r.isDone()) {
            return false;
        }
        // true for one caller only (CompletableFuture.cancel says true again to a second), and
        // the same state: isCancelled() reads a CancellationException as the outcome. Both marks
        // are set before the completion, which runs the stages of the copies on this thread at
        // once: a stage that asked isCancelled() was told no, and one that released this future
        // released it without the cancel, so that its task ran. A cancel that finds the first mark
        // set lost to that one, which completes the future or finds it completed: false either way
        CancellationException c = new CancellationException("the future for key '" + key + "' was cancelled");
        if (!casCancellation(c)) {
            return false;
        }
        // the second mark claims the release for the cancel; a release() on another thread (or
        // the cleaner) whose action ran since the read above released the task plainly, and it
        // runs: that release came first, so this cancel returns false and completes nothing
        if (release != null && !release.claimForCancel()) {
            return false;
        }
        boolean completed = r.completeExceptionally(c);
        if (release != null) {
            // Only now may the scheduler hear of the cancel: told before, it could forget the task
            // and complete the future first, and this cancel returned false for a task it had
            // cancelled. Completed meanwhile (the task ended first), a release is a plain one
            release.cancelSettled(completed);
        }
        if (!completed) {
            return false;
        }
        cancelled = true;
        if (cleanable != null) {
            cleanable.clean();                // the release, with the cancel, once (unless sent above)
        }
        return true;
    }

    /**
     * Whether {@link #cancel} cancelled this future; {@code true} in the stages of its copies that
     * the cancel runs, as a {@link CompletableFuture} reads in its own.
     */
    @Override
    public boolean isCancelled() {
        if (cancelled) {
            return true;
        }
        CancellationException c = cancellation;
        CompletableFuture<T> r = result;
        if (c == null || r == null || !r.isCompletedExceptionally()) {
            return false;
        }
        try {
            r.getNow(null);
            return false;
        } catch (CancellationException e) {
            // the cancel's outcome, not another CancellationException; later JDKs (19+) throw a
            // new one from getNow with the stored one as its cause
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t == c) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether the task completed; {@code true} once released (nothing more will happen here). */
    @Override
    public boolean isDone() {
        CompletableFuture<T> r = result;
        return r == null || r.isDone();
    }

    /**
     * @throws IllegalStateException if this future was released, or it is not done and the caller
     *     is a callback of a future of the same cluster (see the class comment)
     */
    @Override
    public T get() throws InterruptedException, ExecutionException {
        try {
            return await(0, null);
        } catch (TimeoutException e) {
            throw new AssertionError("an untimed wait timed out", e);
        }
    }

    /**
     * @throws IllegalStateException if this future was released, or it is not done and the caller
     *     is a callback of a future of the same cluster (see the class comment)
     */
    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        return await(timeout, unit);
    }

    /**
     * Waits for the result, without a limit if {@code unit} is null. A task that waits here holds
     * one of its worker's threads, which the task it waits for may need: on a cluster worker's
     * thread it runs that task itself if it is ready there ({@link ClusterWorker#helpUntil}); the
     * wait is a blocking section, so a Spindle pool adds a spare thread for the other tasks (a pool
     * sees a timed wait as work and would give it none). Why the check
     * of the notifier: it alone completes these futures, so its wait never ends.
     */
    private T await(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return awaitResult(timeout, unit);
        } catch (CancellationException e) {
            // the cancel's own exception, which names the key, on every JDK: JDK 19 and later's
            // CompletableFuture.get throws a new one ("get") with the one the future holds as its cause
            throw e.getCause() instanceof CancellationException held ? held : e;
        }
    }

    private T awaitResult(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        CompletableFuture<T> r = held();
        if (r.isDone()) {
            return r.get();
        }
        if (owner instanceof GraphScheduler scheduler && scheduler.onNotifierThread()) {
            throw new IllegalStateException("cannot wait for the future for key '" + key + "' in a callback of a "
                    + "cluster future: callbacks run on the thread that completes every future of the cluster, so "
                    + "the wait would never end (chain with thenCompose, or use an *Async stage)");
        }
        // a negative timeout is no wait, as a zero one: added as is, Long.MIN_VALUE nanoseconds (or a
        // timeout that saturates to it) put the deadline 2^63 ns away, so that deadline - now
        // overflowed to a huge positive wait and the call never timed out
        long deadline = unit == null ? 0 : System.nanoTime() + Math.max(0, unit.toNanos(timeout));
        try {
            return Spindle.blocking(() -> {
                ClusterWorker.helpUntil(owner, key, r, unit != null, deadline);
                return unit == null ? r.get() : r.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            });
        } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);   // CompletableFuture.get throws nothing else
        }
    }

    @Override
    public String toString() {
        CompletableFuture<T> r = result;
        return "ClusterFuture[" + key + (r == null ? ", released]" : r.isDone() ? ", done]" : "]");
    }
}
