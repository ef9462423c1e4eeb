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
 * A thread pool with one shared lock-free queue and a one-task LIFO slot per worker, built for
 * message passing: a task that a worker's task submits runs next on that same worker, while its
 * data is still in cache.
 *
 * <pre>{@code
 * try (WorkSharingPool pool = WorkSharingPool.builder().name("actors").build()) {
 *     pool.execute(() -> {
 *         // runs on a worker; this follow-up goes into that worker's slot and runs right after
 *         pool.execute(() -> System.out.println("next on " + Thread.currentThread().getName()));
 *     });
 * }
 * }</pre>
 *
 * <h2>Where tasks go</h2>
 *
 * <ul>
 *   <li>From a thread outside the pool: to the shared {@link Injector}, a lock-free FIFO;
 *       then a parked worker is woken if nobody is already looking for work.</li>
 *   <li>From a worker of this pool: into that worker's <em>slot</em>. If the slot held a task,
 *       that older task moves to the shared queue, where any worker can take it, and a parked
 *       worker may be woken for it. Filling an empty slot wakes nobody: the task will run on this
 *       worker as soon as the current task returns, and a wake-up would cost a system call for a
 *       task nobody else needs to run.</li>
 * </ul>
 *
 * <p>{@link Hints} are ignored, except {@link Hints#yielding()}: a yielding task from a
 * worker goes to the shared queue's tail rather than the slot.
 *
 * <h2>The worker loop and its two guarantees</h2>
 *
 * <p>A worker takes its slot task first, else the head of the shared queue; with neither, it
 * parks (see {@code IdleCoordinator} in the source: one volatile read on the submit path when
 * a worker is already awake, no lost wake-ups).
 *
 * <ul>
 *   <li><b>The slot does not starve the shared queue.</b> After three slot
 *       tasks in a row, if the shared queue holds anything, the slot task is appended to the
 *       shared queue and the worker takes the shared queue's head instead. A chain of tasks that
 *       each submit the next (an actor sending itself messages) thus yields to queued work every
 *       few hops.</li>
 *   <li><b>A slot task does not wait long for the task that submitted it.</b> The slot is
 *       filled only by its worker while that worker runs a task, and the worker empties it first
 *       thing when the task returns; filling it wakes nobody. So if the submitting task goes on
 *       to block or to compute for a long time, its slot task waits for it. Three things bound
 *       this: a second submission moves the first to the shared queue (so at most one task
 *       waits); a task that blocks inside {@link dev.spindle.Spindle#blocking} has its worker's
 *       slot task moved to the shared queue, and a worker woken for it, before the blocking
 *       section starts, and a task submitted inside a blocking section goes to the shared queue,
 *       not the slot (a {@code get} of a future this pool's {@code submit} returned is such a
 *       section while the task is not done); and for a task that blocks without saying so
 *       (a latch, a {@code CompletableFuture.join} of work it submitted here), one parked worker
 *       at a time watches the others while any of them is awake, and moves a slot task to the
 *       shared queue once the task in front of it has run on for a whole watch interval
 *       (10 ms; the watcher looks every 10 to 40 ms, so such a task moves within about 60 ms).
 *       The watcher costs nothing on the task path and nothing in an idle pool: one timed
 *       wake-up every 10 to 40 ms of one parked thread while others work; about 70 ms after
 *       every worker parked it gives the role up, and the first worker to wake after that
 *       nudges a parked one to take it.</li>
 * </ul>
 *
 * <p>This pool has no spare workers: a blocking section frees a slot task for <em>another</em>
 * worker, but does not add one. A task that waits for work it submitted here therefore needs a
 * second worker free to run it: on a one-worker pool, {@code pool.submit(inner).get()} inside a
 * task waits for good, as on a one-thread {@code ThreadPoolExecutor}. A
 * {@link WorkStealingPool} runs such a task from within the wait instead.
 *
 * <h2>Memory ordering</h2>
 *
 * <p>Only the owner fills its slot, with a release store (or an atomic swap if the slot was
 * occupied); the owner, {@link #shutdownNow()}, {@code Spindle.blocking} and the watcher all
 * empty it with an atomic swap, so each slot task is taken exactly once and its taker sees it
 * fully built. The owner's check of its
 * slot is a plain read: only it can make the slot non-empty, so a {@code null} it reads is
 * current, and a stale non-null value only sends it to the swap. The shared queue's guarantees
 * are the {@link Injector}'s: every access that matters is a volatile read, CAS or atomic swap.
 *
 * <h2>Shutdown and failures</h2>
 *
 * <p>{@link #shutdown()} rejects submissions from outside with
 * {@link RejectedExecutionException}, runs everything accepted, including the tasks workers
 * submit meanwhile, and then the workers exit. {@link #shutdownNow()} interrupts running tasks
 * and returns every accepted task that had not started (the shared queue and every slot). Every
 * accepted task runs exactly once or is returned. An exception thrown by an executed task goes
 * to the {@linkplain Builder#uncaughtExceptionHandler uncaught-exception handler} and never
 * kills a worker; tasks from {@code submit} complete their {@code Future} exceptionally.
 */
public final class WorkSharingPool extends AbstractPool {

    /** Slot tasks a worker runs in a row before it serves the shared queue (as Tokio does). */
    static final int MAX_SLOT_RUNS = 3;

    final Injector<Runnable> shared = new Injector<>();

    /** Run just before a task taken from a slot is offered to the shared queue, if set: a seam for tests. */
    static volatile Runnable beforeHandOff;

    /**
     * Slot tasks a watcher has taken from a peer's slot and not yet queued again
     * ({@link #handOffQueued}). The watcher stays registered as parked meanwhile, so a graceful
     * shutdown's quiet test ({@link #hasAnyTask}) must see the task in its hand too. Changed
     * only by a watcher's hand-off, which is rare (at most one per watch interval).
     */
    private final AtomicInteger watcherHandOffs = new AtomicInteger();

    private WorkSharingPool(Builder b) {
        super(b, "sharing", true, false, true);
        startWorkers();
    }

    /** {@return a builder; see its setters for the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a new, started pool with one worker per available processor} */
    public static WorkSharingPool create() {
        return builder().build();
    }

    /**
     * Runs {@code task} once on a worker: from a worker of this pool, next on that worker (its
     * slot); from any other thread, through the shared queue. Exceptions it throws go to the
     * uncaught-exception handler.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        PoolWorker w = currentWorker();
        if (w != null) {
            rejectIfStopped();
            int prepared = ForkTask.prepareToQueue(task, ForkTask.PINNED);  // accepted, held here: see there
            pushLocal(w, task, prepared);
            return;
        }
        beginExternalSubmit();
        try {
            offerShared(task, ForkTask.prepareToQueue(task, ForkTask.PINNED));  // accepted, held: see there
            idle.notifyWork();
        } finally {
            endExternalSubmit();
        }
    }

    /**
     * As {@link #execute(Runnable)}, except that a {@linkplain Hints#yielding() yielding} task
     * submitted by a worker goes to the tail of the shared queue instead of the worker's slot,
     * so it runs after the work already waiting. Other hints are ignored.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} or {@code hints} is null
     */
    @Override
    public void execute(Runnable task, Hints hints) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(hints, "hints");
        if (hints.yielding() && currentWorker() != null) {
            rejectIfStopped();
            // accepted, held here (see ForkTask.prepareToQueue); the stop phase runs it if STOP races in
            offerShared(task, ForkTask.prepareToQueue(task, ForkTask.PINNED));
            idle.notifyWork();
            return;
        }
        execute(task);
    }

    /**
     * Offers an accepted task to the shared queue; a task of this package that
     * {@link ForkTask#prepareToQueue} changed ({@code prepared}) is left as it was if the offer
     * throws (an {@link OutOfMemoryError} for a segment): bound but in no queue, its {@code join}
     * waited for good and it could not be submitted again.
     */
    private void offerShared(Runnable task, int prepared) {
        try {
            ForkTask.beforeOffer(prepared);
            shared.offer(task);
        } catch (Throwable e) {
            ForkTask.undoPrepareToQueue(task, prepared);   // in no queue: see there
            throw e;
        }
    }

    /** Queues an accepted task on the calling worker; {@code prepared} as for {@link #offerShared}. */
    private void pushLocal(PoolWorker w, Runnable task, int prepared) {
        if (w.blockingDepth != 0) {
            // inside a blocking section: the slot would wait for the whole section, while it is
            // the blocked task that may be waiting for this one (submit-and-get, invokeAll)
            offerShared(task, prepared);
            idle.notifyWork();
            return;
        }
        if (w.slotPlain() == null) {
            w.fillEmptySlot(task);             // only this thread fills it: null is current
            return;
        }
        Runnable previous = w.swapSlot(task);  // atomic: shutdownNow may be emptying it
        if (previous != null) {
            try {
                moveToShared(previous);
            } catch (Throwable e) {
                // no room to queue it (an OutOfMemoryError): the earlier task, in no queue now,
                // was lost, while the caller was told its own task failed. The earlier one goes
                // back into the slot, and the caller's task, taken out again, is the one refused
                if (w.swapSlot(previous) == null) {
                    // shutdownNow took the caller's task meanwhile and returns it: not refused
                    // twice; the earlier task, back in the slot, is the stop phase's to return
                    return;
                }
                ForkTask.undoPrepareToQueue(task, prepared);   // refused, in no queue: see there
                throw e;
            }
            idle.notifyWork();
        }
    }

    @Override
    Runnable poll(PoolWorker w) {
        if (w.slotPlain() != null) {
            Runnable t = w.takeSlot();
            if (t != null) {
                if (w.slotRuns < MAX_SLOT_RUNS) {
                    w.slotRuns++;
                    return t;
                }
                if (shared.isEmpty()) {
                    return t;                  // nothing to starve
                }
                w.slotRuns = 0;
                try {
                    moveToShared(t);           // behind the work that waited
                } catch (Throwable e) {
                    // no room to queue it (an OutOfMemoryError): taken from the slot, it was in
                    // no queue and lost; it runs now instead, the shared queue served next time
                    return t;
                }
                idle.notifyWork();
                return shared.poll();          // null only if peers took it all meanwhile
            }
        }
        w.slotRuns = 0;
        return shared.poll();
    }

    /** Only the shared queue: {@code w} asks when its own slot is empty. */
    @Override
    boolean hasWorkFor(PoolWorker w) {
        return !shared.isEmpty();
    }

    /**
     * Whether a task waits in a slot, in a watcher's hand or in the shared queue. Read in the
     * order a watcher moves a slot task (out of the slot, counted in {@link #watcherHandOffs}
     * from before it is taken until after it is queued again, into the shared queue, or, if that
     * fails, into the watcher's own slot): a slot found empty after the take means the count
     * read next is up, or already down with the task queued where a later read finds it. The
     * slots are read again last, for the watcher's own slot, which another worker's slot may
     * have been read after (see {@link #handOffQueued}). Read in the other order, the shared
     * queue before the slots, a worker parking after {@code shutdown} found the pool quiet while
     * the task was in the watcher's hand: the pool terminated, the other workers exited, and the
     * watcher ran the task alone on the last thread, which then waited for good on any work it
     * submitted and waited for ({@code submit(..).get()}), so the pool never terminated.
     */
    @Override
    boolean hasAnyTask() {
        return anySlotOccupied() || watcherHandOffs.get() != 0 || !shared.isEmpty() || anySlotOccupied();
    }

    private boolean anySlotOccupied() {
        for (PoolWorker w : workers) {
            if (w.slotOccupied()) {
                return true;
            }
        }
        return false;
    }

    @Override
    void drainQueued(List<Runnable> out) {
        shared.drain(out::add);
        for (PoolWorker w : workers) {
            Runnable t = w.takeSlot();
            if (t != null) {
                out.add(t);
            }
        }
    }

    @Override
    long sharedQueued() {
        return shared.size();
    }

    @Override
    long queuedAt(PoolWorker w) {
        return w.slotOccupied() ? 1 : 0;
    }

    /**
     * {@code w}'s task is about to block, or the watcher found it running on for a whole interval
     * with a task in its slot: moves that task to the shared queue and wakes a worker for it. The
     * slot is emptied with the same atomic swap as its owner's take, so the task is taken once;
     * its owner, finding the slot empty, goes on to the shared queue.
     */
    @Override
    void handOffQueued(PoolWorker w) {
        if (currentWorker() == w) {
            moveSlotToShared(w);               // the owner, awake: no quiet test can pass meanwhile
            return;
        }
        watcherHandOffs.incrementAndGet();     // before the take: see hasAnyTask
        try {
            moveSlotToShared(w);
        } finally {
            watcherHandOffs.decrementAndGet(); // after the task is queued again
        }
    }

    /** {@link #handOffQueued}'s move, on the owner's thread or a watcher's. */
    private void moveSlotToShared(PoolWorker w) {
        Runnable t = w.takeSlot();
        if (t != null) {
            try {
                moveToShared(t);
            } catch (Throwable e) {
                // no room to queue it (an OutOfMemoryError): the task is in no queue now, and
                // was lost. It goes back into a slot, the handing-off thread's own, which only
                // that thread fills and which is empty: the owner's, just emptied (the section
                // is not entered, and the task runs after the task that tried to block), or the
                // watcher's, a parked worker's, which it polls as it leaves the watch. The owner
                // is told; the watcher runs the task itself rather than end its thread.
                PoolWorker me = currentWorker();
                me.fillEmptySlot(t);
                if (me == w) {
                    throw e;
                }
                return;
            }
            idle.notifyWork();
        }
    }

    /** Offers {@code t}, just taken from a slot, to the shared queue. */
    private void moveToShared(Runnable t) {
        Runnable hook = beforeHandOff;
        if (hook != null) {
            hook.run();
        }
        shared.offer(t);
    }

    /** Configures a {@link WorkSharingPool}; the shared settings are described on each setter. */
    public static final class Builder extends PoolBuilder<Builder> {
        private Builder() {
        }

        /** {@return a new pool, its workers started} */
        public WorkSharingPool build() {
            return new WorkSharingPool(this);
        }
    }
}
