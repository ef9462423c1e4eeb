/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Hints;
import dev.spindle.queue.Injector;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * A thread pool that runs more urgent tasks first: a task's priority is
 * {@link Hints#priority()}, smaller is more urgent, and {@link #execute(Runnable)} means priority
 * 0. Among tasks of equal priority the order is FIFO: they start in the order they were accepted.
 * On a pool with one worker this order is exact; with several, tasks start in this order but
 * run concurrently, and a task submitted while a worker is choosing may miss that choice (see
 * below).
 *
 * <pre>{@code
 * try (PriorityPool pool = PriorityPool.builder().workers(4).build()) {
 *     Hints urgent = Hints.ofPriority(-10);
 *     pool.execute(() -> compactLogs());                  // priority 0
 *     pool.execute(() -> answerHealthCheck(), urgent);    // runs before queued priority-0 work
 * }
 * }</pre>
 *
 * <p>Priorities are strict: as long as more urgent tasks are queued, less urgent ones wait, as
 * with a {@link java.util.concurrent.PriorityBlockingQueue}. A stream of urgent work can
 * therefore starve lower priorities.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>Most programs use a handful of priority levels, so the pool keeps one lock-free FIFO
 * {@link Injector} per distinct priority seen, in an array sorted from most to least urgent
 * ({@code levels}). The array is copy-on-write: a submitter finds its level by binary search
 * in the current array without any lock; only the first task of a new priority takes a lock,
 * re-reads the array, and publishes a copy with the new level inserted (a volatile write).
 * Levels are never removed, so each distinct priority ever used costs one queue (a segment of
 * 1,024 slots) and one more look per scan: the pool is meant for a few, not thousands of,
 * distinct priorities. A worker scans the levels from the most urgent and takes the head of the
 * first non-empty one. No per-task allocation is made beyond the queue's segments, and no
 * sequence number is needed for FIFO order: each level is itself a FIFO.
 *
 * <p><b>A concurrent, more urgent task.</b> A worker reads {@code levels} afresh before each
 * scan, and a submitter publishes a new level before it offers its task. A task is therefore
 * seen by every scan that starts after its {@code execute} returned. A scan already under way
 * may have passed the task's level (or read the array before the level existed) and take a
 * less urgent task; that is the ordinary race between two concurrent operations, and the urgent
 * task is taken by the next scan.
 *
 * <p><b>Wake-ups</b> follow {@code IdleCoordinator} (see the source, whose overview holds the
 * argument): a parking worker's re-check re-reads {@code levels} and every level's queue, so it
 * also sees a level created concurrently.
 *
 * <h2>Shutdown and failures</h2>
 *
 * <p>{@link #shutdown()} rejects submissions from outside with
 * {@link RejectedExecutionException}, runs everything accepted, including tasks workers submit
 * meanwhile, and then the workers exit. {@link #shutdownNow()} interrupts running tasks and
 * returns every accepted task that had not started, most urgent first. Every accepted task runs
 * exactly once or is returned. An exception thrown by an executed task goes to the
 * {@linkplain Builder#uncaughtExceptionHandler uncaught-exception handler} and never kills a
 * worker; tasks from {@code submit} (priority 0) complete their {@code Future} exceptionally.
 *
 * <p>This pool has no spare workers: a task that waits for work it submitted here needs another
 * worker free to run it, so on a one-worker pool {@code pool.submit(inner).get()} inside a task
 * waits for good, as on a one-thread {@code ThreadPoolExecutor}.
 */
public final class PriorityPool extends AbstractPool {

    /** One priority's FIFO queue. */
    static final class Level {
        final int priority;
        final Injector<Runnable> queue = new Injector<>();

        Level(int priority) {
            this.priority = priority;
        }
    }

    /** Sorted by priority, most urgent (smallest) first; copy-on-write under {@link #levelLock}. */
    private volatile Level[] levels;
    private final Object levelLock = new Object();

    private PriorityPool(Builder b) {
        super(b, "priority", true, false, false);
        levels = new Level[] {new Level(0)};   // the default priority, always present
        startWorkers();
    }

    /** {@return a builder; see its setters for the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a new, started pool with one worker per available processor} */
    public static PriorityPool create() {
        return builder().build();
    }

    /**
     * Runs {@code task} once on a worker, with priority 0. Exceptions it throws go to the
     * uncaught-exception handler.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        enqueue(task, 0);
    }

    /**
     * Runs {@code task} once on a worker, before queued tasks of larger {@link Hints#priority()}
     * and after queued tasks of the same or a smaller one. Other hints are ignored.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} or {@code hints} is null
     */
    @Override
    public void execute(Runnable task, Hints hints) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(hints, "hints");
        enqueue(task, hints.priority());
    }

    private void enqueue(Runnable task, int priority) {
        if (currentWorker() != null) {
            rejectIfStopped();
            offer(task, priority);
            idle.notifyWork();
            return;
        }
        beginExternalSubmit();
        try {
            offer(task, priority);
            idle.notifyWork();
        } finally {
            endExternalSubmit();
        }
    }

    /**
     * Queues an accepted task at its priority's level. A task of this package is prepared first
     * ({@link ForkTask#prepareToQueue}), and left as it was if the level or the offer throws (an
     * {@link OutOfMemoryError} for a new level or segment): bound but in no queue, its
     * {@code join} waited for good and it could not be submitted again.
     */
    private void offer(Runnable task, int priority) {
        int prepared = ForkTask.prepareToQueue(task, ForkTask.PINNED);  // accepted, held here: see there
        try {
            ForkTask.beforeOffer(prepared);
            level(priority).queue.offer(task);
        } catch (Throwable e) {
            ForkTask.undoPrepareToQueue(task, prepared);   // in no queue: see there
            throw e;
        }
    }

    /** The level of {@code priority}, created if this is its first task. */
    private Level level(int priority) {
        Level[] ls = levels;
        int i = search(ls, priority);
        return i >= 0 ? ls[i] : addLevel(priority);
    }

    /** Binary search by priority: the index, or {@code -(insertion point) - 1}. */
    private static int search(Level[] ls, int priority) {
        int lo = 0;
        int hi = ls.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int p = ls[mid].priority;
            if (p < priority) {
                lo = mid + 1;
            } else if (p > priority) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    private Level addLevel(int priority) {
        synchronized (levelLock) {
            Level[] ls = levels;
            int i = search(ls, priority);
            if (i >= 0) {
                return ls[i];                  // another submitter added it meanwhile
            }
            int at = -(i + 1);
            Level[] copy = new Level[ls.length + 1];
            System.arraycopy(ls, 0, copy, 0, at);
            copy[at] = new Level(priority);
            System.arraycopy(ls, at, copy, at + 1, ls.length - at);
            levels = copy;                     // publishes the level before any task is offered
            return copy[at];
        }
    }

    @Override
    Runnable poll(PoolWorker w) {
        for (Level l : levels) {
            Runnable t = l.queue.poll();
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    @Override
    boolean hasWorkFor(PoolWorker w) {
        return hasAnyTask();
    }

    @Override
    boolean hasAnyTask() {
        for (Level l : levels) {
            if (!l.queue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    @Override
    void drainQueued(List<Runnable> out) {
        for (Level l : levels) {
            l.queue.drain(out::add);
        }
    }

    @Override
    long sharedQueued() {
        long n = 0;
        for (Level l : levels) {
            n += l.queue.size();
        }
        return n;
    }

    /** The distinct priorities seen so far, most urgent first (for tests and diagnostics). */
    int[] priorities() {
        Level[] ls = levels;
        int[] out = new int[ls.length];
        for (int i = 0; i < ls.length; i++) {
            out[i] = ls[i].priority;
        }
        return out;
    }

    /** Configures a {@link PriorityPool}; the shared settings are described on each setter. */
    public static final class Builder extends PoolBuilder<Builder> {
        private Builder() {
        }

        /** {@return a new pool, its workers started} */
        public PriorityPool build() {
            return new PriorityPool(this);
        }
    }
}
