/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Hints;
import dev.spindle.queue.Injector;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
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
            offer(target, task);
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
            offer(target, task);
            idle.wake(target.index);
        } finally {
            endExternalSubmit();
        }
    }

    /**
     * Queues an accepted task on {@code target}. A task of this package is prepared first
     * ({@link ForkTask#prepareToQueue}), and left as it was if the offer throws (an
     * {@link OutOfMemoryError} for a segment): bound but in no queue, its {@code join} waited for
     * good and it could not be submitted again.
     */
    private static void offer(PoolWorker target, Runnable task) {
        int prepared = ForkTask.prepareToQueue(task, ForkTask.PINNED);  // accepted, pinned: see there
        try {
            ForkTask.beforeOffer(prepared);
            target.queue.offer(task);
        } catch (Throwable e) {
            ForkTask.undoPrepareToQueue(task, prepared);   // in no queue: see there
            throw e;
        }
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
