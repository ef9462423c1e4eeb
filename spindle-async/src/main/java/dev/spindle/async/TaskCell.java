/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One spawned task as the runtime sees it: the user's {@link AsyncTask}, its run state, its wake
 * count and the worker that last polled it. The cell is also the task's {@link Waker} and the
 * {@link Context} of its polls, so a poll allocates nothing.
 *
 * <h2>The state machine</h2>
 *
 * <p>One {@code int} word, changed only by CAS or by the single thread that owns the current
 * state (noted "owner" below):
 *
 * <pre>
 *   spawn ──► SCHEDULED ──(worker takes it; CAS)──► RUNNING
 *   RUNNING ──(poll pending; CAS, owner)──────────► IDLE
 *   RUNNING ──(wake during poll; CAS)─────────────► RUNNING_WOKEN
 *   RUNNING_WOKEN ──(poll pending; owner)─────────► SCHEDULED   (re-queued at a FIFO end)
 *   RUNNING, RUNNING_WOKEN ──(poll ready/throws)──► DONE
 *   IDLE ──(wake; CAS)────────────────────────────► SCHEDULED   (sent to a wake channel)
 *   SCHEDULED, IDLE ──(runtime shut down)─────────► DONE        (no worker is left)
 * </pre>
 *
 * <p>Only the transitions into {@code SCHEDULED} enqueue the cell, and each is taken by exactly
 * one thread (the winner of the CAS from {@code IDLE}, the spawner, or the poller leaving
 * {@code RUNNING_WOKEN}), so a cell is in at most one queue at a time. Only the worker that wins
 * {@code SCHEDULED → RUNNING} polls, and a cell returns to {@code SCHEDULED} only after that poll
 * is over, so no two threads ever poll it at once. A wake in {@code SCHEDULED} or
 * {@code RUNNING_WOKEN} only counts (the task will be polled anyway); a wake in {@code DONE}
 * does nothing.
 *
 * <p><b>Memory ordering.</b> All state accesses are volatile (CAS, volatile read and write).
 * The poller's writes during poll <i>n</i> precede its release of {@code RUNNING} (a CAS to
 * {@code IDLE} or a volatile write of {@code SCHEDULED}); the thread that next moves the state
 * on reads that write (its CAS), then publishes the cell through a queue (the queues' offer and
 * take are volatile/CAS), and the next poller's CAS {@code SCHEDULED → RUNNING} follows its take.
 * Every link is a synchronizes-with edge, so poll <i>n</i> happens-before poll <i>n + 1</i> and a
 * task's own fields need no synchronisation, as {@link AsyncTask} promises. Whatever a waker's
 * caller wrote before {@code wake()} likewise happens-before the poll that follows the wake.
 */
final class TaskCell<T> implements Waker, Context {

    static final int IDLE = 0;
    static final int SCHEDULED = 1;
    static final int RUNNING = 2;
    static final int RUNNING_WOKEN = 3;
    static final int DONE = 4;

    private static final VarHandle STATE;
    private static final VarHandle WAKES;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(TaskCell.class, "state", int.class);
            WAKES = l.findVarHandle(TaskCell.class, "wakeCount", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final AsyncRuntime runtime;
    final JoinHandle<T> handle;
    /** The user's task; cleared when the cell is done so the task can be collected. */
    AsyncTask<T> task;

    private volatile int state = SCHEDULED;
    private volatile long wakeCount;
    /** Set by {@link JoinHandle#cancel}; the next worker to take the cell finishes it unpolled. */
    volatile boolean cancelled;
    /** The worker that last polled this cell; its wake channel receives the cell's wake-ups. */
    volatile AsyncWorker owner;

    // Owner-only fields (the worker polling or queuing the cell in its hot queue).
    /** What is left of this poll's budget. */
    int budgetLeft;
    /** Hot-queue key: {@link #waitWakes()} when the cell entered the hot queue. */
    long hotKey;
    /**
     * How many times the poller re-queued the cell because it was woken during its own poll
     * (a yield, mostly). Written only by the poller, before the write of {@code SCHEDULED} that
     * hands the cell on, so whoever takes the cell next sees it.
     */
    long selfRequeues;
    /** Hot-queue tie-break: the worker's insertion sequence number. */
    long hotSeq;
    /** The next cell in the {@link LiveTasks} list this cell was spawned into. */
    TaskCell<?> nextLive;
    /** Id and spawn site for flight recorder events; {@code null} unless a recording wanted them. */
    LongPollEvent.Origin origin;

    TaskCell(AsyncRuntime runtime, AsyncTask<T> task) {
        this.runtime = runtime;
        this.task = task;
        this.handle = new JoinHandle<>(this);
        this.origin = LongPollEvent.originAtSpawn();
    }

    int state() {
        return state;
    }

    /** How many times the task's waker fired while the task was not done. */
    long wakeCount() {
        return wakeCount;
    }

    /**
     * The wake-ups that found the task waiting: the wake count less one per re-queue after a
     * wake during the task's own poll. A task that yields is not made to wait by anyone, so its
     * yields must not raise it in the HYBRID order. Read by the worker holding the cell.
     */
    long waitWakes() {
        return wakeCount - selfRequeues;
    }

    // ------------------------------------------------------------------ Waker and Context

    @Override
    public void wake() {
        if (schedule(true)) {
            runtime.deliverWake(this);
        }
    }

    @Override
    public Waker waker() {
        return this;
    }

    @Override
    public boolean consumeBudget() {
        if (budgetLeft <= 0) {
            return false;
        }
        budgetLeft--;
        return true;
    }

    // ------------------------------------------------------------------ transitions

    /**
     * Records a wake-up.
     *
     * @param count whether to add to the wake count (cancellation schedules without counting)
     * @return {@code true} if the caller moved the cell from {@code IDLE} to {@code SCHEDULED}
     *     and must now enqueue it; {@code false} if it is queued, running or done already
     */
    boolean schedule(boolean count) {
        for (;;) {
            int s = state;
            switch (s) {
                case IDLE:
                    if (STATE.compareAndSet(this, IDLE, SCHEDULED)) {
                        if (count) {
                            WAKES.getAndAdd(this, 1L);
                        }
                        return true;
                    }
                    break;
                case RUNNING:
                    if (STATE.compareAndSet(this, RUNNING, RUNNING_WOKEN)) {
                        if (count) {
                            WAKES.getAndAdd(this, 1L);
                        }
                        return false;
                    }
                    break;
                case SCHEDULED:
                case RUNNING_WOKEN:
                    if (count) {
                        WAKES.getAndAdd(this, 1L);
                    }
                    return false;
                default:
                    return false;              // DONE: nothing to do
            }
        }
    }

    /** {@code SCHEDULED → RUNNING}; {@code false} if the cell is not scheduled (never expected). */
    boolean startRun() {
        return STATE.compareAndSet(this, SCHEDULED, RUNNING);
    }

    /**
     * After a pending poll: {@code RUNNING → IDLE}, or {@code RUNNING_WOKEN → SCHEDULED}.
     *
     * @return {@code true} if the task was woken during its poll and the caller must re-queue it
     */
    boolean finishPending() {
        if (STATE.compareAndSet(this, RUNNING, IDLE)) {
            return false;
        }
        selfRequeues++;                        // before the write that publishes it
        state = SCHEDULED;                     // was RUNNING_WOKEN; only the poller leaves it
        return true;
    }

    /** Marks the cell done for good; wakes after this do nothing. */
    void finish() {
        state = DONE;
        task = null;
    }

    @Override
    public String toString() {
        return "TaskCell[state=" + state + ", wakes=" + wakeCount + "]";
    }
}
