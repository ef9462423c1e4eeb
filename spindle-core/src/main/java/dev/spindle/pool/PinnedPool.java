/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Hints;
import dev.spindle.queue.Injector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread pool whose tasks are pinned to workers: each worker has its own queue, a task goes to
 * exactly one worker's queue, and only that worker ever runs it. Use it where tasks must not
 * migrate between threads: thread-confined state, per-thread caches, or to keep one key's work
 * in order on one thread.
 *
 * <pre>{@code
 * try (PinnedPool pool = PinnedPool.builder().workers(4).build()) {
 *     for (Order o : orders) {
 *         int shard = Math.floorMod(o.customerId().hashCode(), 4);
 *         // all of one customer's orders run on one thread, in submission order
 *         pool.execute(() -> book(o), Hints.DEFAULT.withWorkerIndex(shard));
 *     }
 * }
 * }</pre>
 *
 * <h2>Where tasks go</h2>
 *
 * <ul>
 *   <li>With a {@linkplain Hints#workerIndex() worker hint} {@code i}: worker
 *       {@code i % workers}.</li>
 *   <li>Without one, from a worker of this pool: that worker (a task's follow-ups stay on its
 *       thread).</li>
 *   <li>Without one, from any other thread: the workers in turn (round-robin over one shared
 *       counter).</li>
 * </ul>
 *
 * <p>Each worker runs its queue in FIFO order, so tasks sent to one worker from one thread run
 * in the order they were sent. Priority hints are ignored. Nothing balances load: a worker with
 * a long queue keeps it while others idle. That is the point of pinning; use
 * {@link WorkSharingPool} or {@link WorkStealingPool} where tasks may move. For the same reason
 * {@code invokeAll} and {@code invokeAny} called from a worker of this pool run their tasks on
 * that worker, in the calling task, one after another: queued behind the caller, where they
 * would be pinned, they could never run while it waits. A task that waits for other work
 * pinned to its own worker (a {@code get} of a future it submitted there) still waits for ever.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>Each worker's queue is an {@link Injector} used as a multi-producer, single-consumer FIFO:
 * any thread offers, only the owner polls. A submitter offers its task and then wakes the target
 * worker only ({@code IdleCoordinator.wake} in the source, whose overview holds the argument that
 * no wake-up is lost): a submission to a running worker costs the queue's offer plus one volatile
 * read of the target's parked flag. Workers never search: a wake-up is always for the worker
 * that will run the task.
 *
 * <h2>Shutdown and failures</h2>
 *
 * <p>{@link #shutdown()} rejects submissions from outside with
 * {@link RejectedExecutionException}, runs everything accepted, including tasks workers submit
 * meanwhile, and then the workers exit. {@link #shutdownNow()} interrupts running tasks and
 * returns every accepted task that had not started. Every accepted task runs exactly once, on
 * its own worker, or is returned. An exception thrown by an executed task goes to the
 * {@linkplain Builder#uncaughtExceptionHandler uncaught-exception handler} and never kills a
 * worker; tasks from {@code submit} complete their {@code Future} exceptionally.
 */
public final class PinnedPool extends AbstractPool {

    /** Round-robin cursor for external submissions without a worker hint. */
    private final AtomicInteger nextWorker = new AtomicInteger();

    private PinnedPool(Builder b) {
        super(b, "pinned", false, true, false);
        startWorkers();
    }

    /** {@return a builder; see its setters for the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a new, started pool with one worker per available processor} */
    public static PinnedPool create() {
        return builder().build();
    }

    /**
     * Runs {@code task} once: on the calling worker if it is one of this pool's, otherwise on
     * the next worker in turn. Exceptions it throws go to the uncaught-exception handler.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        place(task, -1);
    }

    /**
     * Runs {@code task} once on worker {@code hints.workerIndex() % workers()}, or, without a
     * worker hint, as {@link #execute(Runnable)} does. Other hints are ignored.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} or {@code hints} is null
     */
    @Override
    public void execute(Runnable task, Hints hints) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(hints, "hints");
        place(task, hints.workerIndexOr(-1));
    }

    private void place(Runnable task, int hint) {
        PoolWorker self = currentWorker();
        if (self != null) {
            rejectIfStopped();
            PoolWorker target = hint >= 0 ? workers[hint % workers.length] : self;
            target.queue.offer(task);
            if (target != self) {
                idle.wake(target.index);          // the caller itself is running: no wake needed
            }
            return;
        }
        beginExternalSubmit();
        try {
            int i = hint >= 0 ? hint % workers.length
                    : Math.floorMod(nextWorker.getAndIncrement(), workers.length);
            PoolWorker target = workers[i];
            target.queue.offer(task);
            idle.wake(target.index);
        } finally {
            endExternalSubmit();
        }
    }

    /**
     * As {@link java.util.concurrent.AbstractExecutorService#invokeAll(Collection)}; called from a
     * worker of this pool, it runs the tasks on that worker, in order (see "Where tasks go").
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return currentWorker() == null ? super.invokeAll(tasks) : invokeAllHere(tasks, false, 0L);
    }

    /**
     * As {@link #invokeAll(Collection)}, with a timeout; called from a worker of this pool, the
     * tasks not started by then are cancelled (one that started runs to its end).
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        return currentWorker() == null ? super.invokeAll(tasks, timeout, unit)
                : invokeAllHere(tasks, true, unit.toNanos(timeout));
    }

    /**
     * As {@link java.util.concurrent.AbstractExecutorService#invokeAny(Collection)}; called from a
     * worker of this pool, it runs the tasks on that worker, in order, until one succeeds.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        if (currentWorker() == null) {
            return super.invokeAny(tasks);
        }
        try {
            return invokeAnyHere(tasks, false, 0L);
        } catch (TimeoutException impossible) {
            throw new AssertionError("an untimed invokeAny timed out", impossible);
        }
    }

    /** As {@link #invokeAny(Collection)}, with a timeout, checked before each task starts. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return currentWorker() == null ? super.invokeAny(tasks, timeout, unit)
                : invokeAnyHere(tasks, true, unit.toNanos(timeout));
    }

    /**
     * The futures of {@code tasks}, checked for null before any runs. The tasks run on the calling
     * worker rather than through {@code execute}, so this is where a stopped pool refuses them,
     * as {@code execute} from a worker does after {@link #shutdownNow()}: running them would start
     * tasks in a pool that promised to start no more.
     */
    private <T> List<FutureTask<T>> futures(Collection<? extends Callable<T>> tasks) {
        Objects.requireNonNull(tasks, "tasks");
        rejectIfStopped();
        List<FutureTask<T>> out = new ArrayList<>(tasks.size());
        for (Callable<T> c : tasks) {
            out.add(new FutureTask<>(Objects.requireNonNull(c, "a task to invoke is null")));
        }
        return out;
    }

    /** invokeAll on a worker of this pool: each task runs here; an interrupt cancels the rest. */
    private <T> List<Future<T>> invokeAllHere(Collection<? extends Callable<T>> tasks, boolean timed,
                                              long nanos) throws InterruptedException {
        // a negative timeout counts as 0, as in the JDK: now + Long.MIN_VALUE lies 2^63 ns away,
        // and the deadline's difference tested below overflowed into ~292 years ahead
        long deadline = System.nanoTime() + Math.max(0L, nanos);
        List<FutureTask<T>> futures = futures(tasks);
        int i = 0;
        try {
            for (; i < futures.size(); i++) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (timed && deadline - System.nanoTime() <= 0L) {
                    break;                     // the rest are cancelled below
                }
                futures.get(i).run();
            }
        } finally {
            for (int j = i; j < futures.size(); j++) {
                futures.get(j).cancel(false);
            }
        }
        return new ArrayList<>(futures);
    }

    /** invokeAny on a worker of this pool: the tasks run here, in order, until one succeeds. */
    private <T> T invokeAnyHere(Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + Math.max(0L, nanos);   // as in invokeAllHere
        List<FutureTask<T>> futures = futures(tasks);
        if (futures.isEmpty()) {
            throw new IllegalArgumentException("invokeAny needs at least one task");
        }
        ExecutionException failure = null;
        for (FutureTask<T> f : futures) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (timed && deadline - System.nanoTime() <= 0L) {
                throw new TimeoutException();
            }
            f.run();
            try {
                return f.get();
            } catch (ExecutionException e) {
                failure = e;
            }
        }
        throw failure;
    }

    @Override
    Runnable poll(PoolWorker w) {
        return w.queue.poll();
    }

    @Override
    boolean hasWorkFor(PoolWorker w) {
        return !w.queue.isEmpty();
    }

    @Override
    boolean hasAnyTask() {
        for (PoolWorker w : workers) {
            if (!w.queue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    @Override
    void drainQueued(List<Runnable> out) {
        for (PoolWorker w : workers) {
            w.queue.drain(out::add);
        }
    }

    @Override
    long sharedQueued() {
        return 0;
    }

    @Override
    long queuedAt(PoolWorker w) {
        return w.queue.size();
    }

    /** Configures a {@link PinnedPool}; the shared settings are described on each setter. */
    public static final class Builder extends PoolBuilder<Builder> {
        private Builder() {
        }

        /** {@return a new pool, its workers started} */
        public PinnedPool build() {
            return new PinnedPool(this);
        }
    }
}
