/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.BlockingSupport;
import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.internal.WatcherRole;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What every pool worker has, whichever pool it serves: its index, its thread, the flags the
 * lifecycle in {@link PoolCore} needs, its counters, and the padded block of fields its owner
 * writes on every task. A subclass supplies the loop ({@link #work}) and the two operations of
 * the stop phase after {@code shutdownNow} ({@link #takeLate}, {@link #runLate}).
 *
 * <p>The counters are written only by the owner, with opaque stores, and read by
 * {@code stats()} with opaque loads: cheap, and exact once the pool is quiet.
 */
abstract class BaseWorker extends WorkerPadAfter implements Runnable, BlockingSupport {

    private static final VarHandle EXECUTED;
    private static final VarHandle PARKS;
    private static final VarHandle UNPARKS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            EXECUTED = l.findVarHandle(WorkerHotFields.class, "executed", long.class);
            PARKS = l.findVarHandle(WorkerHotFields.class, "parks", long.class);
            UNPARKS = l.findVarHandle(BaseWorker.class, "unparks", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int index;
    /** The pool whose lifecycle runs this worker; compared on every spawn, hence a field. */
    final PoolCore core;

    /** The thread running this worker; set before it starts. */
    volatile Thread thread;
    /** Whether a thread runs this worker now (set before it starts, cleared as it exits). */
    volatile boolean alive;
    /** Owner only: whether this thread has been counted as finished (see {@link PoolCore}). */
    boolean finishedCounted;
    /**
     * Times another thread woke this worker from a park with work to look for. Written once per
     * wake-up, not per task, so it lives outside the padded block of per-task fields.
     */
    private long unparks;

    BaseWorker(int index, PoolCore core) {
        this.index = index;
        this.core = core;
    }

    /**
     * Owner only: registered as parked ({@link IdleCoordinator#prepareToPark}) and not yet back
     * from the wait, nor out of the park by {@link #leaveRegisteredPark}.
     */
    boolean parkRegistered;

    /**
     * Leaves a park this worker registered for and will not wait in: its re-check found work, or
     * its loop threw an {@link Error} in between (see {@link #survives}). The one place a
     * registered park is undone, for every pool kind.
     *
     * <p>{@link IdleCoordinator#cancelPark} fails only if a waker took this worker meanwhile; the
     * waker then counted it as searching, so the worker takes that role up
     * ({@code searchingIfWoken}: a pool whose workers do not search its queues, as
     * {@link PinnedPool}'s, leaves it {@code false}), else the searching count drifts. It is awake
     * again either way, so it leaves the watcher role's parked set ({@link WatcherRole#leave}):
     * the role may have to pass to a peer still parked.
     *
     * @param watcher the pool's watcher role, or {@code null} in a pool without one
     * @param watch this worker's watch, passed to {@link WatcherRole#leave(LoneTaskWatch)}
     */
    final void leaveRegisteredPark(IdleCoordinator idle, WatcherRole watcher, LoneTaskWatch watch,
            boolean searchingIfWoken) {
        parkRegistered = false;
        if (!idle.cancelPark(index)) {
            searching = searchingIfWoken;
        }
        if (watcher != null) {
            watcher.leave(watch);
        }
    }

    /** Tasks a round of the worker loop runs at most before it returns ({@link PoolCore#runWorker}). */
    static final int TASKS_PER_ROUND = 1 << 16;

    /** Rounds of this worker's loop begun again, for {@code WorkerRoundsTest}; owner-written. */
    volatile long rounds;

    /**
     * A round of the worker loop: runs tasks until there are none (then parks, or finds work
     * while preparing to, once), {@link #TASKS_PER_ROUND} tasks ran, the worker should exit or
     * the pool stops.
     *
     * @return {@code true} to be called again; {@code false} when the worker should exit or the
     *     pool stops
     */
    abstract boolean work();

    /**
     * Called once on the worker's thread before its first round ({@link PoolCore#runWorker}), off
     * the loop's compiled body. Does nothing by default.
     */
    void started() {
    }

    /**
     * Called once on the worker's thread as it ends ({@link PoolCore#runWorker}), however it ends,
     * before the pool counts the thread gone: so before the pool can terminate. Does nothing by
     * default; must not throw.
     */
    void ended() {
    }

    /**
     * Whether the worker goes on after {@code e}, an {@link Error} thrown by {@link #work} itself,
     * outside any task (a task's failures are caught where it runs), having undone whatever of a
     * park it had begun; {@code false} ends its thread (see {@link PoolCore#runWorker}).
     */
    boolean survives(Throwable e) {
        return false;
    }

    /** After {@code shutdownNow}: a task this worker may still take, or {@code null}. */
    abstract Runnable takeLate();

    /** After {@code shutdownNow}: runs a task from {@link #takeLate}. */
    abstract void runLate(Runnable task);

    @Override
    public final void run() {
        core.runWorker(this);
    }

    @Override
    public final boolean serves(Object scheduler) {
        return scheduler == core;
    }

    // ------------------------------------------------------------------ counters

    final void countExecuted() {
        EXECUTED.setOpaque(this, executed + 1);
    }

    final void countPark() {
        PARKS.setOpaque(this, parks + 1);
    }

    /** Owner only: this worker was woken from a park by another thread (see {@link #unparks}). */
    final void countUnpark() {
        UNPARKS.setOpaque(this, unparks + 1);
    }

    final long unparks() {
        return (long) UNPARKS.getOpaque(this);
    }

    final long executed() {
        return (long) EXECUTED.getOpaque(this);
    }

    final long parks() {
        return (long) PARKS.getOpaque(this);
    }
}
