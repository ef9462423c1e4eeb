/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.BlockingSupport;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link AbstractExecutorService} for the pools and {@link SchedulerUnion}: {@code invokeAll} and
 * {@code invokeAny} called from a worker of a Spindle pool wait as a
 * {@linkplain dev.spindle.Spindle#blocking blocking section}, and so does a {@code get} of a
 * future that {@code submit} returned, while it is not done.
 *
 * <p>Why: {@link AbstractExecutorService}'s versions queue the tasks through {@code execute} and
 * then wait for them in a way no pool can see (a {@link Future#get} of a foreign future, a
 * completion queue's {@code take}). Called by a task on a worker, a submission goes where that
 * worker would run it (a work-sharing worker's slot, which no other worker takes; a work-stealing
 * worker's own deque), and the wait holds that worker: a work-sharing pool's {@code invokeAny}
 * of one task never returned, whatever the number of workers. Waiting as a blocking section, a
 * worker of the pool hands its slot task to the shared queue and submits there
 * ({@link WorkSharingPool}), or a spare runs its queue ({@link WorkStealingPool}), and a worker
 * of another pool lets that pool compensate. A pool without spare workers cannot compensate its
 * own worker, though: a one-worker work-sharing or priority pool's {@code invokeAll} from its
 * task never returned, since the only thread that could run the tasks waited for them. So
 * {@link AbstractPool} has the calling worker of its own pool run the tasks nobody else has
 * started (a pinned worker's own submissions stay on it anyway; see {@link PinnedPool}).
 *
 * <p>The same holds for the most common form of it, a task that submits another and waits for
 * it: {@code pool.submit(inner).get()}. A plain {@link FutureTask}'s {@code get} parks where no
 * pool sees it, so on a work-sharing pool the inner task stayed in the waiting worker's slot for
 * good, however many workers idled. The futures made here ({@link #newTaskFor}) wait in
 * {@code get} as a blocking section when called from a Spindle worker and the task is not done
 * yet; once it is done, {@code get} is {@link FutureTask}'s. A work-stealing pool makes its own
 * futures, whose {@code get} helps instead.
 *
 * <p>{@code invokeAny} is {@link AbstractExecutorService}'s algorithm, done here so that each
 * task is queued as its own future, with no wrapper around it (see {@link #invokeAnyQueued}).
 */
abstract class CompensatingExecutorService extends AbstractExecutorService {

    // The JDK's submit throws a NullPointerException without a message; every pool and the
    // union check here instead, so that the message names the parameter on all of them alike.

    /**
     * As {@link AbstractExecutorService#submit(Runnable)}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws java.util.concurrent.RejectedExecutionException if the executor does not accept the task
     */
    @Override
    public Future<?> submit(Runnable task) {
        return submit(task, null);             // what the JDK's does, with the binding below
    }

    /**
     * As {@link AbstractExecutorService#submit(Runnable, Object)}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws java.util.concurrent.RejectedExecutionException if the executor does not accept the task
     */
    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        Objects.requireNonNull(task, "task");
        // the future runs a task of this package as a pool's execute does: see ForkTask.prepareToQueue
        int prepared = ForkTask.prepareToQueue(task, submittedParent());
        try {
            // A task of this package that prepareToQueue kept as it was was spawned, forked or
            // submitted before (it is queued in a pool, maybe another one, or runs, or ran): it
            // does not run only through the future made here, which must then neither cancel it
            // nor hand it back with itself (see CompensatingFuture.owned). Hidden behind a plain
            // Runnable, no future takes it for its own: cancelling a second submit's future, or
            // the second pool's shutdownNow, cancelled it or handed it back while the pool that
            // accepted it first still ran, which then skipped it, or dropped its value.
            Runnable wrapped = prepared == ForkTask.KEPT && task instanceof ForkTask<?> f ? new NotOwned(f) : task;
            RunnableFuture<T> future;
            try {
                future = newTaskFor(wrapped, result);   // as AbstractExecutorService.submit
            } catch (Throwable e) {
                ForkTask.undoPrepareToQueue(task, prepared);   // nothing queued yet
                throw e;
            }
            try {
                execute(future);
            } catch (Error e) {
                if (executeErrorsLeaveUnqueued()) {
                    ForkTask.undoPrepareToQueue(task, prepared);
                }
                throw e;
            }
            return future;
        } catch (RejectedExecutionException e) {
            ForkTask.undoPrepareToQueue(task, prepared);
            throw e;
        }
    }

    /**
     * Whether an {@link Error} thrown by {@link #execute} (an {@link OutOfMemoryError} for a
     * queue's segment) means the task is in no queue, so that {@link #submit(Runnable, Object)}
     * leaves a task of this package it prepared as it was, as {@code execute} does: left bound,
     * with nothing to run it, its {@code join} waited for good. {@code false} by default: an
     * executor whose {@code execute} may throw after queueing (a {@link WorkStealingPool}'s fork
     * stack spills an older task after the push) must leave the task as it is, since a worker
     * may take it.
     */
    boolean executeErrorsLeaveUnqueued() {
        return false;
    }

    /**
     * The parent {@link #submit(Runnable, Object)} gives a task of this package it prepares
     * ({@link ForkTask#prepareToQueue}): none (a {@link WorkStealingPool}'s joiners may run it
     * themselves), but {@link ForkTask#PINNED} where the future runs only on the pool's own
     * workers (every {@link AbstractPool}: pinned, priority and sharing pools), so that no joiner
     * runs the task itself.
     */
    ForkTask<?> submittedParent() {
        return null;
    }

    /**
     * A task of this package given to {@code submit} that was queued before (see
     * {@link #submit(Runnable, Object)}): the future runs it if nobody has yet, as a pool's
     * workers do (only while it is {@code NEW}), and owns nothing of it. Its {@code run()} would
     * also take it back from the {@code shutdownNow} of the pool where it was queued first,
     * which returned it as not started and ended its joins as cancelled: it ran all the same.
     */
    private static final class NotOwned implements Runnable {
        private final ForkTask<?> task;

        NotOwned(ForkTask<?> task) {
            this.task = task;
        }

        @Override
        public void run() {
            task.tryRun();
        }

        @Override
        public String toString() {
            return task.toString();            // what a future's toString shows of its task
        }
    }

    /**
     * As {@link AbstractExecutorService#submit(Callable)}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws java.util.concurrent.RejectedExecutionException if the executor does not accept the task
     */
    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return super.submit(Objects.requireNonNull(task, "task"));
    }

    /** As {@link AbstractExecutorService#invokeAll(Collection)}; see the class overview. */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        checkTasks(tasks, false);
        BlockingSupport caller = BlockingSupport.current();
        if (caller == null) {
            return super.invokeAll(tasks);
        }
        caller.beginBlocking();
        try {
            return super.invokeAll(tasks);
        } finally {
            caller.endBlocking();
        }
    }

    /** As {@link AbstractExecutorService#invokeAll(Collection, long, TimeUnit)}; see the class overview. */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        checkTasks(tasks, false);
        Objects.requireNonNull(unit, "unit");
        BlockingSupport caller = BlockingSupport.current();
        if (caller == null) {
            return super.invokeAll(tasks, timeout, unit);
        }
        caller.beginBlocking();
        try {
            return super.invokeAll(tasks, timeout, unit);
        } finally {
            caller.endBlocking();
        }
    }

    /** As {@link AbstractExecutorService#invokeAny(Collection)}; see the class overview. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        checkTasks(tasks, true);
        BlockingSupport caller = BlockingSupport.current();
        if (caller != null) {
            caller.beginBlocking();
        }
        try {
            return invokeAnyQueued(tasks, false, 0L);
        } catch (TimeoutException impossible) {
            throw new AssertionError("an untimed invokeAny timed out", impossible);
        } finally {
            if (caller != null) {
                caller.endBlocking();
            }
        }
    }

    /** As {@link AbstractExecutorService#invokeAny(Collection, long, TimeUnit)}; see the class overview. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        checkTasks(tasks, true);
        long nanos = Objects.requireNonNull(unit, "unit").toNanos(timeout);
        BlockingSupport caller = BlockingSupport.current();
        if (caller != null) {
            caller.beginBlocking();
        }
        try {
            return invokeAnyQueued(tasks, true, nanos);
        } finally {
            if (caller != null) {
                caller.endBlocking();
            }
        }
    }

    /**
     * {@code invokeAny} as {@link AbstractExecutorService} does it: each task goes to
     * {@code execute}, the next one only while none has completed, and the first success is
     * returned; the rest are cancelled with interrupt. The time is looked at only once every task
     * is queued. The difference: a task is queued as it is, a {@link ForkTask} that tells the
     * waiting {@code invokeAny} when it is done ({@link #anyTaskFor}), not inside a wrapper.
     * The JDK's completion-queue wrapper, cancelled, left the task's own future not started;
     * {@code shutdownNow()} returns the task itself now, and an interrupted close cancels it, as
     * it cancels every future it drops so that its caller is told
     * ({@link dev.spindle.internal.Closing#cancelIfFuture}), and so is the caller here. And a
     * wrapper ran, and was counted as a completed task ({@link dev.spindle.SchedulerStats.WorkerStats#completed()}),
     * whether or not its task ran: every task cancelled in the queue once another had succeeded
     * was counted, on every pool. A fork task is run by a worker only if it was not cancelled, and
     * counted only then ({@link ForkTask#tryRun}), on every pool.
     */
    private <T> T invokeAnyQueued(Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + Math.max(0L, nanos);   // a negative timeout counts as 0
        BlockingQueue<Future<T>> completed = new LinkedBlockingQueue<>();
        List<Future<T>> futures = new ArrayList<>(tasks.size());
        Iterator<? extends Callable<T>> it = tasks.iterator();
        ExecutionException failure = null;
        int pending = 0;
        try {
            for (;;) {
                Future<T> f = completed.poll();
                if (f == null) {
                    if (it.hasNext()) {
                        ForkTask<T> task = anyTaskFor(it.next(), completed);
                        futures.add(task);
                        execute(task);
                        pending++;
                        continue;
                    }
                    if (pending == 0) {
                        break;
                    }
                    f = timed ? completed.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS) : completed.take();
                    if (f == null) {
                        throw new TimeoutException();
                    }
                }
                pending--;
                try {
                    return f.get();            // completed: returns at once
                } catch (ExecutionException e) {
                    failure = e;
                } catch (CancellationException e) {
                    failure = new ExecutionException(e);   // cancelled with its wrapper, as dropped
                }
            }
            if (failure == null) {
                // not empty when checked, yet it iterated nothing (emptied meanwhile by another thread)
                throw new IllegalArgumentException("tasks must not be empty: invokeAny needs at least one task"
                        + " (the collection iterated none)");
            }
            throw failure;
        } finally {
            for (Future<T> f : futures) {
                f.cancel(true);
            }
        }
    }

    /**
     * A task of {@link #invokeAnyQueued}, as it is queued: once done (run, failed, or cancelled,
     * in the queue or while it runs, by {@code invokeAny} or by the holder of
     * {@code shutdownNow()}'s list) it adds itself to {@code completed}, for {@code invokeAny} to
     * take. Its parent is the one {@code submit} gives ({@link #submittedParent}): a work-sharing,
     * priority or pinned pool's task runs only on that pool's workers.
     */
    private <T> ForkTask<T> anyTaskFor(Callable<T> callable, BlockingQueue<Future<T>> completed) {
        ForkTask<T> task = new ForkTask<>(callable, submittedParent());
        task.toCompletableFuture().whenComplete((value, failure) -> completed.add(task));
        return task;
    }

    /**
     * Checks the argument of {@code invokeAll} ({@code any} false) or {@code invokeAny} before
     * any task is queued, so that every pool fails alike and says which argument is wrong:
     * {@link AbstractExecutorService} throws a bare {@link NullPointerException} or
     * {@link IllegalArgumentException}, and its {@code invokeAny} ignores a null element it does
     * not reach, when another task already succeeded.
     *
     * @throws NullPointerException if {@code tasks} or one of its elements is null
     * @throws IllegalArgumentException if {@code any} and {@code tasks} is empty
     */
    static void checkTasks(Collection<? extends Callable<?>> tasks, boolean any) {
        Objects.requireNonNull(tasks, "tasks");
        if (any && tasks.isEmpty()) {
            throw new IllegalArgumentException("tasks must not be empty: invokeAny needs at least one task");
        }
        for (Callable<?> c : tasks) {
            if (c == null) {
                throw new NullPointerException("tasks must not contain null");
            }
        }
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new CompensatingFuture<>(callable);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new CompensatingFuture<>(runnable, value);
    }

    /**
     * A {@link FutureTask} whose waiting {@code get} is a blocking section when called from a
     * worker of a Spindle pool; see the class overview.
     */
    static final class CompensatingFuture<V> extends FutureTask<V> {

        /**
         * What runs the task of this package that {@code submit} was given ({@link
         * ForkTask.OwnedRun}; {@link ForkTask#prepareToQueue} bound or reclaimed the task, so it
         * looks queued), or {@code null}; one it kept as it was, queued or started before, is
         * hidden from this future ({@link #submit(Runnable, Object)}). The task runs only through
         * this future, so when this future is cancelled, or handed back by {@code shutdownNow}, so
         * is it; left as it was, its {@code join} waited for good.
         */
        final ForkTask.OwnedRun owned;

        /**
         * Whether {@link #run} ran the task to its end (it returned or threw), for the pool's
         * count of completed tasks ({@link AbstractPool#runTask}, and the copies of an
         * {@code invokeAll} on a worker, {@link AbstractPool.Invoked}). A future cancelled before it
         * started runs nothing, and counted as a completed task, a work-sharing, priority or
         * pinned pool reported every cancelled submission as run (a work-stealing pool counts
         * only the tasks it starts). Written and read by the running thread alone: plain. With
         * compressed references it takes alignment padding: the future is 40 bytes with it and
         * without it.
         */
        boolean ended;

        CompensatingFuture(Callable<V> callable) {
            super(callable);
            this.owned = null;
        }

        CompensatingFuture(Runnable runnable, V value) {
            this(runnable instanceof ForkTask<?> f ? new ForkTask.OwnedRun(f) : null, runnable, value);
        }

        private CompensatingFuture(ForkTask.OwnedRun owned, Runnable runnable, V value) {
            super(owned != null ? owned : runnable, value);
            this.owned = owned;
        }

        /** Called by {@link FutureTask#run} once the task returned, whether or not it was cancelled meanwhile. */
        @Override
        protected void set(V v) {
            ended = true;
            super.set(v);
        }

        /** Called by {@link FutureTask#run} once the task threw, whether or not it was cancelled meanwhile. */
        @Override
        protected void setException(Throwable t) {
            ended = true;
            super.setException(t);
        }

        @Override
        protected void done() {
            if (owned != null && isCancelled()) {
                owned.fork.cancel(false);
            }
        }

        @Override
        public V get() throws InterruptedException, ExecutionException {
            BlockingSupport caller = isDone() ? null : BlockingSupport.current();
            if (caller == null) {
                return super.get();
            }
            caller.beginBlocking();
            try {
                return super.get();
            } finally {
                caller.endBlocking();
            }
        }

        /**
         * As {@link FutureTask#get(long, TimeUnit)}, whose {@link NullPointerException} for a
         * {@code null} unit has no message: this one names the parameter, as a
         * {@link WorkStealingPool}'s futures and the pools' own methods do.
         */
        @Override
        public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            Objects.requireNonNull(unit, "unit");
            BlockingSupport caller = isDone() ? null : BlockingSupport.current();
            if (caller == null) {
                return super.get(timeout, unit);
            }
            caller.beginBlocking();
            try {
                return super.get(timeout, unit);
            } finally {
                caller.endBlocking();
            }
        }
    }

    /**
     * {@link AbstractExecutorService#invokeAll(Collection)} as it is, for a pool whose futures'
     * {@code get} helps or compensates on its own ({@link WorkStealingPool}).
     */
    final <T> List<Future<T>> invokeAllUncompensated(Collection<? extends Callable<T>> tasks)
            throws InterruptedException {
        checkTasks(tasks, false);
        return super.invokeAll(tasks);
    }

    /** {@link AbstractExecutorService#invokeAll(Collection, long, TimeUnit)} as it is; see above. */
    final <T> List<Future<T>> invokeAllUncompensated(Collection<? extends Callable<T>> tasks, long timeout,
                                                     TimeUnit unit) throws InterruptedException {
        checkTasks(tasks, false);
        Objects.requireNonNull(unit, "unit");
        return super.invokeAll(tasks, timeout, unit);
    }
}
