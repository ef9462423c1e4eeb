/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import java.util.OptionalInt;

/**
 * Advice that travels with a task to a {@link Scheduler}: how urgent it is, which member of a
 * scheduler union should run it, and on which worker it would like to run.
 *
 * <p>Hints are advice, not commands: a scheduler uses the hints it has a use for and ignores
 * the rest. A {@code PriorityPool} reads {@link #priority()}, a {@code SchedulerUnion} reads
 * {@link #schedulerIndex()}, a {@code PinnedPool} reads {@link #workerIndex()}; schedulers
 * that run a worker's own submissions first ({@code WorkStealingPool}, {@code WorkSharingPool})
 * read {@link #yielding()}.
 *
 * <p>Instances are immutable and compare by value. Build one once and reuse it: the
 * {@code with...} methods return a new instance and leave the receiver alone.
 *
 * <pre>{@code
 * Hints urgent = Hints.DEFAULT.withPriority(-10);           // smaller is more urgent
 * Hints ioGroup = Hints.DEFAULT.withSchedulerIndex(1);      // the union's second member
 * Hints onWorker3 = Hints.DEFAULT.withWorkerIndex(3);       // pinned to worker 3 % workers
 * scheduler.execute(() -> handle(request), urgent);
 * }</pre>
 */
public final class Hints {

    /** Priority 0, scheduler index 0, no worker preference, not yielding. */
    public static final Hints DEFAULT = new Hints(0, 0, -1, false);

    private final int priority;
    private final int schedulerIndex;
    /** The preferred worker, or -1 for none. */
    private final int workerIndex;
    private final boolean yielding;

    private Hints(int priority, int schedulerIndex, int workerIndex, boolean yielding) {
        this.priority = priority;
        this.schedulerIndex = schedulerIndex;
        this.workerIndex = workerIndex;
        this.yielding = yielding;
    }

    /**
     * Hints with the given priority and defaults otherwise.
     *
     * @param priority how urgent the task is: any {@code int}, smaller runs first
     * @return hints with that priority, scheduler index 0, no worker preference, not yielding
     */
    public static Hints ofPriority(int priority) {
        return DEFAULT.withPriority(priority);
    }

    /**
     * {@return how urgent the task is} Smaller values run first on schedulers that order by
     * priority. Any {@code int} is allowed; the default is 0.
     */
    public int priority() {
        return priority;
    }

    /** {@return which member of a scheduler union should run the task} The default is 0. */
    public int schedulerIndex() {
        return schedulerIndex;
    }

    /** {@return the worker the task would like to run on, if any} The default is none. */
    public OptionalInt workerIndex() {
        return workerIndex < 0 ? OptionalInt.empty() : OptionalInt.of(workerIndex);
    }

    /**
     * The preferred worker, without allocating an {@code OptionalInt}.
     *
     * @param fallback what to return when there is no preferred worker
     * @return the preferred worker's index (0 or more), or {@code fallback}
     */
    public int workerIndexOr(int fallback) {
        return workerIndex < 0 ? fallback : workerIndex;
    }

    /**
     * A copy with another priority.
     *
     * @param priority how urgent the task is: any {@code int}, smaller runs first
     * @return hints equal to these but for the priority (these, if it is the same)
     */
    public Hints withPriority(int priority) {
        return priority == this.priority ? this : new Hints(priority, schedulerIndex, workerIndex, yielding);
    }

    /**
     * A copy with another scheduler index.
     *
     * @param schedulerIndex the union member to run the task, counted from 0 in the order the
     *     union was built with (a union refuses an index beyond its members)
     * @return hints equal to these but for the scheduler index
     * @throws IllegalArgumentException if {@code schedulerIndex} is negative
     */
    public Hints withSchedulerIndex(int schedulerIndex) {
        if (schedulerIndex < 0) {
            throw new IllegalArgumentException("schedulerIndex must be >= 0, was " + schedulerIndex);
        }
        return schedulerIndex == this.schedulerIndex
                ? this : new Hints(priority, schedulerIndex, workerIndex, yielding);
    }

    /**
     * A copy that prefers worker {@code workerIndex} (taken modulo the number of workers by
     * schedulers that place tasks on workers).
     *
     * @param workerIndex the preferred worker, 0 or more
     * @return hints equal to these but for the worker preference
     * @throws IllegalArgumentException if {@code workerIndex} is negative
     */
    public Hints withWorkerIndex(int workerIndex) {
        if (workerIndex < 0) {
            throw new IllegalArgumentException("workerIndex must be >= 0, was " + workerIndex);
        }
        return workerIndex == this.workerIndex ? this : new Hints(priority, schedulerIndex, workerIndex, yielding);
    }

    /**
     * Whether the task is work given back by a task that has had its turn (an actor that used
     * up its messages per activation, a loop that yields), and should wait behind work already
     * queued. Schedulers that run a worker's own submissions next, newest first, queue a
     * yielding task behind other work instead, so that it cannot take the thread straight back.
     * The default is {@code false}.
     *
     * @return whether the task yields to work already queued
     */
    public boolean yielding() {
        return yielding;
    }

    /**
     * A copy with {@link #yielding()} set.
     *
     * @param yielding whether the task should wait behind work already queued
     * @return hints equal to these but for {@link #yielding()}
     */
    public Hints withYielding(boolean yielding) {
        return yielding == this.yielding ? this : new Hints(priority, schedulerIndex, workerIndex, yielding);
    }

    /** {@return a copy with no worker preference (these, if they have none)} */
    public Hints withoutWorkerIndex() {
        return workerIndex < 0 ? this : new Hints(priority, schedulerIndex, -1, yielding);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hints h
                && h.priority == priority
                && h.schedulerIndex == schedulerIndex
                && h.workerIndex == workerIndex
                && h.yielding == yielding;
    }

    @Override
    public int hashCode() {
        return ((priority * 31 + schedulerIndex) * 31 + workerIndex) * 2 + (yielding ? 1 : 0);
    }

    @Override
    public String toString() {
        return "Hints[priority=" + priority + ", schedulerIndex=" + schedulerIndex
                + ", workerIndex=" + (workerIndex < 0 ? "none" : Integer.toString(workerIndex))
                + (yielding ? ", yielding" : "") + "]";
    }
}
