/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.internal.Parker;
import dev.spindle.internal.WatcherRole;
import dev.spindle.queue.Injector;

/**
 * What the workers of one {@link WorkStealingPool} share and talk to: the injector, the worker
 * slots (for stealing), the idle protocol ({@link IdleCoordinator}, with spares: slots from
 * {@code parallelism} on) and the spare workers, and the questions a worker asks
 * about the queues before it parks. The lifecycle (stopping, termination, failures) is the
 * pool's {@link PoolCore}.
 */
final class Shared {

    final Injector<Runnable> injector = new Injector<>();
    /** Core workers, then slots for spares ({@code null} until first used). */
    final Worker[] workers;
    final IdleCoordinator idle;
    final Spares spares;
    /** The backstop for workers that all wait unseen inside tasks. */
    final StarvationWatch starvation;
    /**
     * The parked core worker that watches the others, one at a time (see {@link Worker}, "the
     * LIFO slot": while it is held, filling a slot wakes nobody).
     */
    final WatcherRole watcher;
    /** Random victims a searching worker probes per round. */
    final int stealAttempts;
    /** Slots ever used: {@code workers[0 .. slotsInUse)}; only grows. */
    private volatile int slotsInUse;

    Shared(WorkStealingPool pool, int parallelism, int maxSpares, int stealAttempts, long keepAliveNanos,
            int queueCapacity) {
        this.workers = new Worker[parallelism + maxSpares];
        this.stealAttempts = stealAttempts;
        this.spares = new Spares(pool, this, parallelism, keepAliveNanos, queueCapacity);
        this.idle = new IdleCoordinator(workers.length, parallelism, spares::live,
                Parker.ofThreads(pool, pool.name(), i -> workers[i].thread), pool::dropStrayInterrupt);
        this.slotsInUse = parallelism;
        this.starvation = new StarvationWatch(pool, this);
        this.watcher = new WatcherRole(idle, pool::isStopping, true, true);
    }

    int slotsInUse() {
        return slotsInUse;
    }

    /** The workers as {@link LoneTaskWatch} sees its peers. */
    final LoneTaskWatch.Peers watchedPeers = new LoneTaskWatch.Peers() {
        @Override
        public int size() {
            return slotsInUse;
        }

        @Override
        public LoneTaskWatch.Peer get(int i) {
            return workers[i];
        }
    };

    /** Called under the spares' lock before slot {@code i} gets a thread. */
    void useSlot(int i) {
        if (i >= slotsInUse) {
            slotsInUse = i + 1;
        }
    }

    /**
     * Whether there is work for an idle worker: a task in the injector, or a worker's deque and
     * fork stack holding more than the one task its running owner will take next.
     *
     * <p>For liveness only the injector matters: a task in a deque is run by its owner, which is
     * running (a worker parks only with an empty deque, and nobody else pushes to it). The
     * surplus test is for parallelism. Counting a deque's single task would make idle workers
     * wake themselves to chase every task a busy worker is about to pop.
     */
    boolean hasVisibleWork() {
        if (!injector.isEmpty()) {
            return true;
        }
        Worker[] ws = workers;
        for (int i = 0, n = slotsInUse; i < n; i++) {
            Worker w = ws[i];
            if (w != null && w.localSize() >= 2) {
                return true;
            }
        }
        return false;
    }

    /** Whether any queue holds a task at all (also the quiescence test of a graceful shutdown). */
    boolean hasAnyTask() {
        if (!injector.isEmpty()) {
            return true;
        }
        Worker[] ws = workers;
        for (int i = 0, n = slotsInUse; i < n; i++) {
            Worker w = ws[i];
            if (w != null && w.hasLocalWork()) {
                return true;
            }
        }
        return false;
    }
}
