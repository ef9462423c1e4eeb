/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.SchedulerStats;
import dev.spindle.internal.IdleControl;
import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.Parker;
import dev.spindle.queue.Injector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What {@link WorkSharingPool}, {@link PriorityPool} and {@link PinnedPool} share beyond the
 * lifecycle of {@link PoolCore}: their workers, the worker loop, parking and statistics. A
 * subclass supplies its queues through a few hooks ({@link #poll}, {@link #hasWorkFor},
 * {@link #hasAnyTask}, {@link #drainQueued}, {@link #sharedQueued}, {@link #queuedAt}) and its own
 * {@code execute}, which must use {@link #beginExternalSubmit}/{@link #endExternalSubmit} around
 * a submission from outside the pool and {@link #rejectIfStopped} for one from a worker.
 *
 * <h2>The worker loop</h2>
 *
 * <p>Take a task ({@link #poll}) and run it; with none, park following {@link IdleCoordinator}.
 * A worker woken by {@link IdleCoordinator#notifyWork()} counts as searching until it takes a task; if it was the
 * last searcher and work is still queued, it wakes the next worker. Shutdown, late tasks after
 * {@code shutdownNow}, interrupts and failures follow the rules of {@link PoolCore}.
 */
abstract class AbstractPool extends PoolCore {

    private static final AtomicInteger POOL_SEQ = new AtomicInteger();

    final PoolWorker[] workers;
    final IdleCoordinator idle;
    /** Whether any worker may run any queued task (then woken workers search; see {@link IdleCoordinator}). */
    private final boolean sharedQueues;

    /**
     * @param sharedQueues whether every worker may take every queued task
     * @param ownQueues whether each worker gets a queue of its own ({@link PoolWorker#queue})
     */
    AbstractPool(PoolBuilder<?> b, String kind, boolean sharedQueues, boolean ownQueues) {
        super(b, kind, POOL_SEQ);
        this.sharedQueues = sharedQueues;
        this.workers = new PoolWorker[b.workers];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new PoolWorker(this, i, ownQueues ? new Injector<>() : null);
        }
        this.idle = new IdleCoordinator(workers.length, Parker.ofThreads(this, name, i -> workers[i].thread),
                this::dropStrayInterrupt);
    }

    /**
     * Creates and starts the worker threads. Subclasses call it last in their constructor, once
     * their queues exist. A failing factory leaves no thread behind (see {@link PoolCore}).
     */
    final void startWorkers() {
        startWorkers(workers, workers.length);
    }

    // ------------------------------------------------------------------ subclass hooks

    /** The next task for {@code w}, or {@code null}; called only on {@code w}'s thread. */
    abstract Runnable poll(PoolWorker w);

    /**
     * Whether {@code w} could take a task now; its re-check before parking. Must read every
     * queue {@link #poll} takes from with volatile reads (see {@link IdleCoordinator}).
     */
    abstract boolean hasWorkFor(PoolWorker w);

    /** An estimate of the tasks waiting in the queues every worker takes from. */
    abstract long sharedQueued();

    /** An estimate of the tasks waiting in {@code w}'s own queue; none by default. */
    long queuedAt(PoolWorker w) {
        return 0;
    }

    /** Called on {@code w}'s thread when a task there enters a blocking section. */
    void beforeBlocking(PoolWorker w) {
    }

    @Override
    final IdleControl idleControl() {
        return idle;
    }

    @Override
    final int liveWorkers() {
        return workers.length;
    }

    @Override
    final BaseWorker[] workerSlots() {
        return workers;
    }

    /** The worker the calling thread runs, if it is one of this pool's; else {@code null}. */
    final PoolWorker currentWorker() {
        return (PoolWorker) currentWorkerOfThisPool();
    }

    // ------------------------------------------------------------------ the worker loop

    /** A round of the worker loop (see {@link BaseWorker#work}); {@code false} to exit. */
    final boolean loop(PoolWorker w) {
        for (int tasks = 0; tasks < BaseWorker.TASKS_PER_ROUND; ) {
            if (runState >= STOP) {
                return false;
            }
            Runnable task = poll(w);
            if (task != null) {
                if (w.searching) {
                    w.searching = false;
                    if (idle.stopSearching() && hasWorkFor(w)) {
                        idle.notifyWork();     // more work than this worker: wake the next one
                    }
                }
                runTask(w, task);
                tasks++;
                continue;
            }
            return idle(w);                    // a park ends the round (see PoolCore.runWorker)
        }
        return true;
    }

    /**
     * Parks {@code w} (see {@link IdleCoordinator}).
     *
     * @return {@code false} if the worker should leave its loop (the pool terminated or stops)
     */
    private boolean idle(PoolWorker w) {
        boolean recheck = idle.prepareToPark(w.index, w.searching);
        w.searching = false;
        if (recheck && hasWorkFor(w)) {
            if (!idle.cancelPark(w.index)) {
                w.searching = sharedQueues;    // woken meanwhile, and counted as a searcher
            }
            return true;
        }
        if (runState >= SHUTDOWN) {
            tryTerminate();
        }
        w.countPark();
        if (!idle.await(w.index)) {
            return false;
        }
        w.countUnpark();
        w.searching = sharedQueues;            // notifyWork counts whom it wakes as searching
        return true;
    }

    final void runTask(PoolWorker w, Runnable task) {
        dropStrayInterrupt();
        try {
            task.run();
        } catch (Throwable ex) {
            reportFailure(w.thread, ex);
        }
        w.countExecuted();
    }

    // ------------------------------------------------------------------ stats

    /**
     * Returns a racy snapshot of the pool's counters (see {@link SchedulerStats}): completed
     * tasks, parks and queued tasks per worker; a pool without spare workers reports its worker
     * count as parallelism and as live workers, and no blocked workers.
     */
    @Override
    public SchedulerStats stats() {
        List<SchedulerStats.WorkerStats> list = new ArrayList<>(workers.length);
        for (PoolWorker w : workers) {
            list.add(new SchedulerStats.WorkerStats(w.index, false, w.executed(), 0, 0, 0, 0, 0,
                    w.parks(), queuedAt(w), w.unparks()));
        }
        return snapshot(workers.length, workers.length, 0, sharedQueued(), list, idle);
    }

    /** An estimate of the tasks waiting in all queues. */
    final long queuedCount() {
        long n = sharedQueued();
        for (PoolWorker w : workers) {
            n += queuedAt(w);
        }
        return n;
    }

    /** {@return the number of worker threads} */
    public int workers() {
        return workers.length;
    }

    @Override
    final String describe() {
        return "workers=" + workers.length + ", queued~" + queuedCount();
    }
}
