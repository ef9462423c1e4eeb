/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.MoveBracket;
import dev.spindle.internal.jfr.JfrGate;
import dev.spindle.internal.jfr.SpareStartEvent;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The spare workers of a {@link WorkStealingPool}: compensation for workers inside blocking
 * sections (or long joins), and the retirement of spares no longer needed.
 *
 * <p>Two counts decide: {@code live} (core workers plus started spares not yet retired) and
 * {@code blocked} (workers inside a blocking section, kept by the pool's
 * {@link dev.spindle.internal.IdleCoordinator}, whose wake-up test reads it on every local push).
 * A spare is counted live before it can first park and stops being counted only in
 * {@link #tryRetire}, after it left the parked stack, as the idle protocol requires. When a
 * worker blocks and fewer than {@code parallelism} live workers remain unblocked, a spare is
 * started in the first free slot after the core workers (at most {@code maxSpareWorkers}); at
 * the bound, or when the thread factory fails, the section runs without compensation. A spare
 * whose pool has more unblocked live workers than {@code parallelism} retires when it next goes
 * idle ({@link #tryRetire}: a CAS on {@code live}, so two spares cannot both retire the last
 * surplus), or after {@code keepAlive} parked. Starting is serialised by a lock (slow path
 * only); the counts are read without it.
 */
final class Spares {

    private final WorkStealingPool pool;
    private final Shared shared;
    final int parallelism;
    final long keepAliveNanos;
    private final int queueCapacity;

    /** Workers that may run tasks: core workers plus started spares not yet retired. */
    private final AtomicInteger live = new AtomicInteger();
    /**
     * Retirements under way, for {@link WorkStealingPool#stats()}: a spare leaves the idle figures
     * (the parked stack, or the searching count) and then, in {@link #tryRetire}, {@code live}:
     * two steps, and a snapshot taken between them read it live, neither parked nor searching, so
     * a pool with no task at all reported an active worker. Begun before the first step
     * ({@link Worker}'s {@code beginRetiring}), ended once the spare has left {@code live} or
     * registered as parked again ({@code endRetiring}); once per attempt to retire, never per
     * task. A bracket an error left open is closed by the spare's next park or by its end.
     */
    final MoveBracket retirements = new MoveBracket();
    /** Run before a spare's worker is made, if set: a seam for tests. */
    static volatile Runnable beforeNewSpare;
    /**
     * Run by a spare about to retire, if set, before it leaves {@code live} ({@link #tryRetire}):
     * a seam for tests, read once per attempt to retire, never per task.
     */
    static volatile Runnable beforeRetire;

    Spares(WorkStealingPool pool, Shared shared, int parallelism, long keepAliveNanos, int queueCapacity) {
        this.pool = pool;
        this.shared = shared;
        this.parallelism = parallelism;
        this.keepAliveNanos = keepAliveNanos;
        this.queueCapacity = queueCapacity;
        live.set(parallelism);
    }

    int live() {
        return live.get();
    }

    /** Workers inside a blocking section (counted by the idle protocol, which reads it most). */
    int blocked() {
        return shared.idle.blocked();
    }

    /** Live workers not inside a blocking section (parked ones included). */
    int unblockedLive() {
        return live.get() - shared.idle.blocked();
    }

    /** A worker enters a blocking section: start a spare if too few workers remain. */
    void beginBlocking() {
        int b = shared.idle.enterBlocking();
        if (live.get() - b < parallelism && !pool.isStopping()) {
            addSpare();
        }
    }

    void endBlocking() {
        shared.idle.exitBlocking();
    }

    /**
     * Every live worker waits inside a task, unseen, with work queued ({@link StarvationWatch}):
     * start a spare although none of them counts as blocked. It retires when it next goes idle
     * while the pool has more unblocked live workers than it needs.
     *
     * @return whether a spare started (the watch backs off when none could: see StarvationWatch)
     */
    boolean addSpareForStarvation() {
        return !pool.isStopping() && addSpare(true);
    }

    private void addSpare() {
        addSpare(false);
    }

    /** @return whether a spare started */
    private boolean addSpare(boolean starving) {
        int started = startSpare(starving);
        if (started < 0) {
            // The spare was counted live while its thread was asked for: a worker that parked
            // meanwhile after a graceful shutdown found the pool one parked worker short of
            // quiet, and nothing looked again once the count was taken back (the starvation
            // watch asks from a thread of its own, not a worker that parks later). The pool
            // never terminated. Looked at here, outside the spare lock.
            pool.tryTerminate();
        }
        return started > 0;
    }

    /**
     * @return 1 if a spare started; 0 if none was tried (not needed, or at the bound); -1 if one
     *     was counted live and its start failed
     */
    private int startSpare(boolean starving) {
        Worker[] workers = shared.workers;
        synchronized (this) {
            if (!starving && unblockedLive() >= parallelism) {
                return 0;
            }
            for (int i = parallelism; i < workers.length; i++) {
                Worker w = workers[i];
                if (w == null || !w.alive) {
                    if (w == null) {
                        Runnable hook = beforeNewSpare;
                        if (hook != null) {
                            hook.run();
                        }
                        w = new Worker(pool, i, true, queueCapacity);
                        workers[i] = w;
                    }
                    shared.useSlot(i);
                    live.incrementAndGet();
                    if (!pool.tryStartWorker(w)) {
                        live.decrementAndGet(); // no thread to be had: no compensation
                        return -1;
                    }
                    if (JfrGate.open() && SpareStartEvent.enabled()) {
                        // a starving pool's spare is started on the watch's thread, not the
                        // waiting worker's: the event says so, or its thread reads as the blocker
                        SpareStartEvent.emit(pool.name(), i, live.get(), blocked(), starving);
                    }
                    return 1;
                }
            }
            // at the bound: the section runs without compensation
            return 0;
        }
    }


    /** Whether the pool may start spare workers at all ({@code maxSpareWorkers > 0}). */
    boolean mayCompensate() {
        return shared.workers.length > parallelism;
    }

    /** Whether more workers are live and unblocked than the pool needs. */
    boolean hasExcess() {
        return unblockedLive() > parallelism;
    }

    /** Retires a spare worker if the pool still has more than it needs. */
    boolean tryRetire() {
        for (;;) {
            int l = live.get();
            if (l - blocked() <= parallelism) {
                return false;
            }
            if (live.compareAndSet(l, l - 1)) {
                return true;
            }
        }
    }
}
