/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

/**
 * The owner-only state of a worker, written on every task. Some fields serve one kind of
 * worker only; keeping them in one block costs a few bytes per worker and gives every worker the
 * same padding.
 */
abstract class WorkerHotFields extends WorkerPadBefore {
    /** {@link Worker}: the fork task it runs in its innermost recorded frame. */
    ForkTask<?> current;
    /** {@link Worker}: reused by {@code Worker.overflow}. */
    Object[] overflowBuffer;
    /**
     * {@link PoolWorker}: the LIFO slot ({@link WorkSharingPool} only; see its protocol there).
     * {@link Worker} leaves it unused: its newest fork tasks are in its fork stack and a
     * submitted runnable in its own {@code LifoSlot}.
     */
    Runnable slot;
    /** {@link PoolWorker}: slot tasks run in a row since the last task from the shared queue. */
    int slotRuns;
    /** {@link Worker}: turns left until the next forced look at the injector. */
    int tick;
    int blockingDepth;
    boolean searching;
    /**
     * {@link Worker}: whether the top-level task it runs now came out of its LIFO slot, the next
     * link of a chain of hand-offs; only such a task's slot fill may skip the wake-up (see
     * {@code Worker}, "the LIFO slot").
     */
    boolean runsSlotTask;
    long executed;
    long parks;
    /** {@link Worker}: tasks stolen from peers. */
    long steals;
    /** {@link Worker}: tasks moved from its full deque to the injector. */
    long overflowed;
}
