/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.queue.Injector;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker of a {@link WorkSharingPool}, {@link PriorityPool} or {@link PinnedPool}: its
 * counters, its parking state, and the parts of a worker only some of the pools use (the LIFO
 * slot of the work-sharing pool, the own queue of the pinned pool). The loop it runs is
 * {@link AbstractPool#loop}, inside the life {@link PoolCore#runWorker} gives every worker.
 *
 * <p>Field access rules:
 * <ul>
 *   <li>{@code executed} and {@code parks} are written only by the owner, with opaque stores,
 *       and read by {@code stats()} with opaque loads.</li>
 *   <li>{@code slot} is filled only by the owner, while it runs a task. The owner empties it
 *       with an atomic swap, and so do {@code shutdownNow} and the pool's watcher (from other
 *       threads), so a slot task is taken exactly once. The owner's fill of an empty slot is a release store: a
 *       thread that swaps the task out sees it fully constructed.</li>
 *   <li>{@code searching} and {@code slotRuns} are owner-only plain fields.</li>
 * </ul>
 */
final class PoolWorker extends BaseWorker implements LoneTaskWatch.Peer {

    private static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(WorkerHotFields.class, "slot", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final AbstractPool pool;
    /** This worker's own queue ({@link PinnedPool} only; {@code null} elsewhere). */
    final Injector<Runnable> queue;
    /** This worker's watch of its peers while it is the pool's watcher; {@code null} in a pool without one. */
    final LoneTaskWatch watch;

    PoolWorker(AbstractPool pool, int index, Injector<Runnable> queue, LoneTaskWatch watch) {
        super(index, pool);
        this.pool = pool;
        this.queue = queue;
        this.watch = watch;
    }

    @Override
    boolean work() {
        return pool.loop(this);
    }

    @Override
    boolean survives(Throwable e) {
        pool.undoPark(this);                   // an Error in the loop itself: see there
        return true;
    }

    @Override
    Runnable takeLate() {
        return pool.poll(this);
    }

    @Override
    void runLate(Runnable task) {
        pool.runTask(this, task);
    }

    // ------------------------------------------------------------------ blocking sections

    @Override
    public void beginBlocking() {
        if (blockingDepth++ == 0) {
            try {
                pool.handOffQueued(this);
            } catch (Throwable e) {
                // the section is not entered, and its callers begin it outside their try: left
                // counted, this worker would stay inside a section for good, every later
                // submission of its tasks going past its slot
                blockingDepth--;
                throw e;
            }
        }
    }

    @Override
    public void endBlocking() {
        blockingDepth--;
    }

    // ------------------------------------------------------------------ as a watcher sees it

    /** For {@link LoneTaskWatch}: changes whenever this worker finishes a task. */
    @Override
    public long progress() {
        return executed();
    }

    /** For {@link LoneTaskWatch}: whether this worker's slot holds a task. */
    @Override
    public boolean holdsWork() {
        return slotOccupied();
    }

    /**
     * For {@link LoneTaskWatch}: whether this worker is awake (not registered as parked, a racy
     * read). An awake worker may fill its slot and then block without waking anyone, so the
     * watcher goes on looking while any peer is awake; once every peer has stayed parked for a few
     * looks it sleeps until woken, and the first worker to wake passes the role on
     * ({@link dev.spindle.internal.WatcherRole}).
     */
    @Override
    public boolean isBusy() {
        return !pool.idle.isParked(index);
    }

    /** For {@link LoneTaskWatch}, on the watcher's thread: this worker's task ran on with work queued. */
    @Override
    public void stalled() {
        pool.handOffQueued(this);
    }

    // ------------------------------------------------------------------ the LIFO slot

    /** Owner only: the slot's content, read without ordering (only the owner fills it). */
    Runnable slotPlain() {
        return (Runnable) SLOT.get(this);
    }

    /** Owner only: fills an empty slot. */
    void fillEmptySlot(Runnable task) {
        SLOT.setRelease(this, task);
    }

    /** Puts {@code task} in the slot and returns what was there (atomic against a taker). */
    Runnable swapSlot(Runnable task) {
        return (Runnable) SLOT.getAndSet(this, task);
    }

    /** Any thread: empties the slot and returns what was there; exactly one taker wins a task. */
    Runnable takeSlot() {
        return (Runnable) SLOT.getAndSet(this, (Runnable) null);
    }

    /** Any thread: whether the slot looks occupied. */
    boolean slotOccupied() {
        return SLOT.getAcquire(this) != null;
    }
}
