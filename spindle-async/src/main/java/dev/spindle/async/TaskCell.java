/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.async.internal.DroppedValues;

/**
 * One spawned task as the runtime sees it: the user's {@link AsyncTask}, its run state, its wake
 * count and the worker that last polled it. The cell is also the task's {@link JoinHandle} (it
 * extends it: the outcome, the result and the waiters live there), its {@link Waker} and the
 * {@link Context} of its polls, so a spawn allocates this one object and a poll or a wake-up
 * allocates nothing.
 *
 * <h2>The state machine</h2>
 *
 * <p>The run state is the low bits of the handle's state word (see {@link JoinHandle}'s
 * overview for the layout; the outcome and the wake count share the word), changed only by CAS
 * or by an atomic add:
 *
 * <pre>
 *   spawn ──► SCHEDULED                       (queued: one entry in one queue or LIFO slot)
 *   SCHEDULED ──(a worker takes the entry)──► SCHEDULED, polled by that worker (no write)
 *   polled, pending, word unchanged ──(CAS)──► IDLE
 *   polled, pending, woken or cancelled ─────► SCHEDULED   (re-queued at a FIFO end by the poller)
 *   polled, ready or throws ──────────────────► DONE        (with the outcome, one CAS)
 *   IDLE ──(wake; CAS)────────────────────────► SCHEDULED   (sent to a wake channel or the
 *                                                             waking worker's LIFO slot)
 *   SCHEDULED, IDLE ──(runtime shut down)─────► DONE        (no worker is left)
 * </pre>
 *
 * <p><b>The claim is the queue entry.</b> Only the transitions into {@code SCHEDULED} enqueue
 * the cell, and each is taken by exactly one thread (the winner of the CAS from {@code IDLE},
 * the spawner, or the poller that re-queues it), so a scheduled cell has exactly one entry, in
 * one queue or LIFO slot. Every queue hands each entry out once, through its own atomic take (a
 * deque's pop or steal, an injector's poll, the slot's exchange or CAS), and a cell leaves its
 * queue in no other way: nothing polls a cell it did not take from a queue. (A worker blocked in
 * a {@code get} runs the awaited task first only by taking its entry from its own LIFO slot or
 * deque: AsyncWorker's <i>Blocking gets</i>.) So the thread that took the entry is the only one
 * that may poll the cell until the cell is queued again, which happens only after that poll, and
 * no two threads ever poll it at once, without the cell's word recording who runs it. The poller
 * starts with no atomic instruction: it reads the word (the reference {@link #finishPending}
 * compares with) and polls.
 *
 * <p><b>Why a wake during the poll is never lost.</b> While the cell is polled its word still
 * says {@code SCHEDULED}, so a wake only adds to the wake count and a cancel only records its
 * outcome: neither enqueues (the cell will be polled anyway, or is being polled). A wake that
 * came before the poller's read is in that read, and the poll follows it, which is all the wake
 * asked for. One that comes later changes the word, and the poller's closing CAS to
 * {@code IDLE} expects the word it read: it fails, the poller sees the change (the wake count
 * or the outcome differs) and re-queues the cell itself, so the task is polled again (or, if it
 * was cancelled, the next taker retires it unpolled). A wake after the closing CAS finds
 * {@code IDLE} and enqueues. A wake in {@code DONE} does nothing. The wake count has 56 bits, so
 * it cannot wrap back to the read value during one poll.
 *
 * <p>Until session 38 a poll began with a CAS {@code SCHEDULED → RUNNING}, and a wake during the
 * poll moved the word to {@code RUNNING_WOKEN}: that CAS let a worker blocked in a {@code get}
 * claim the awaited cell by reference, wherever its entry was (the entry was then skipped when
 * taken). Every poll paid for that rare claim, a third locked instruction on a task's path
 * where {@code ForkJoinPool} needs two (BENCHMARKS, sessions 37 and 38).
 *
 * <p><b>Memory ordering.</b> All state accesses are volatile (CAS, atomic add, volatile read).
 * The poller's writes during poll <i>n</i> precede its closing CAS to {@code IDLE} (or its offer
 * of the cell to a queue, a release, when it re-queues it); the waker whose CAS moves the cell
 * from {@code IDLE} reads that CAS and then publishes the cell through a queue (offers and takes
 * are release/acquire or CAS; the LIFO slot is read by the very thread that filled it), and the
 * next poller reads the word after its take. Every link is a synchronizes-with edge (or program
 * order), so poll <i>n</i> happens-before poll <i>n + 1</i> and a task's own fields need no
 * synchronisation, as {@link AsyncTask} promises. Whatever a waker's caller wrote before
 * {@code wake()} likewise happens-before the poll that follows the wake: the wake's CAS or add
 * on the word comes before the poller's read of it (that poll sees it) or before the poller's
 * closing CAS, which then fails and re-queues.
 *
 * <p>The Promela model {@code spindle-stress/model/async_park.pml} checks this protocol with the
 * workers' queues and parking (a cell is in at most one queue, taken only while scheduled, and
 * polled by one worker at a time), and the jcstress tests {@code TaskCellPollTests} race a wake
 * and a cancel against a poll's read and closing CAS.
 */
final class TaskCell<T> extends JoinHandle<T> implements Waker, Context {

    static final int IDLE = 0;
    static final int SCHEDULED = 1;
    static final int DONE = (int) RUN_DONE;

    final AsyncRuntime runtime;
    /** The user's task; cleared when the cell is done so the task can be collected. */
    AsyncTask<T> task;

    /**
     * The worker that last polled this cell; its wake channel receives the cell's wake-ups.
     * Plain, not volatile (a volatile store would cost a full fence per poll): it is written by
     * the poller before the poll, so before the poller's closing CAS to {@code IDLE}, and read by
     * the waker whose CAS moves the cell on from {@code IDLE}, which reads that CAS: the write
     * happens-before the read.
     */
    AsyncWorker owner;
    /**
     * {@code 1 +} the index of the worker whose poll of this cell is under way, {@code 0} between
     * polls: the run state the word no longer records, for the few readers that ask (a closing
     * worker's {@link AsyncWorker#cancelAbandoned}, task statistics). Plain: written only by the
     * poller, before and after the poll (an int store, no barrier). A worker reading its own
     * index here is exact (nobody else writes that value, and it sees its own later clearing);
     * what a peer reads is as fresh as its synchronisation with the poller makes it. A poll that
     * ends the task clears it only after the outcome's CAS: cleared before, a closing worker
     * could read {@code 0} with the word still scheduled, take the completing task for one
     * nobody polls and cancel it ahead of the outcome, losing the value (found by review,
     * session 39). A pending poll clears it before its closing CAS, after which another worker
     * may poll the cell and write its own index.
     */
    int polledBy;

    // Owner-only fields (the worker polling the cell).
    /**
     * How many times the poller re-queued the cell because it was woken during its own poll
     * (a yield, mostly). Written only by the poller, before its offer of the cell to a queue (a
     * release) that hands the cell on, so whoever takes the cell next sees it.
     */
    long selfRequeues;
    /**
     * The next cell in the {@link LiveTasks} list this cell was spawned into; written by that
     * list's owner, read racily by {@link AsyncRuntime#busiestTasks} (see LiveTasks).
     */
    TaskCell<?> nextLive;
    /**
     * The next cell in the runtime's {@link StrandedCells}, while this one is there (a queue
     * could not take it); written before the CAS that pushes it, read after the swap that takes
     * it. A field of its own: a stranded cell may be listed in a {@link LiveTasks} list too.
     */
    TaskCell<?> nextStranded;
    /**
     * Id, spawn site and poll statistics, for task statistics and flight recorder events;
     * {@code null} unless one of them was wanted (see {@link TaskInsight}, which reads and
     * writes it with acquire/release).
     */
    TaskInsight insight;

    /** A cell with the insight a spawn on {@code runtime} would give it (for tests). */
    TaskCell(AsyncRuntime runtime, AsyncTask<T> task) {
        // no runtime: a bare cell, as the JoinHandle tests make
        this(runtime, task, TaskInsight.atSpawn(runtime != null && runtime.spawnSites));
    }

    /**
     * A cell with {@code insight} ({@code null} unless {@link TaskInsight#atSpawn} made one).
     * The spawn computes the insight before it allocates the cell, so that this constructor is
     * stores of its arguments alone: with the insight's test (and its rare stack walk) between
     * the allocation and the stores, the compiled spawn could not fold the stores into the
     * allocation, and a spawn took about 3 ns longer (BENCHMARKS, session 37).
     */
    TaskCell(AsyncRuntime runtime, AsyncTask<T> task, TaskInsight insight) {
        super(SCHEDULED);
        this.runtime = runtime;
        this.task = task;
        this.insight = insight;
    }

    /**
     * The wake-ups that found the task waiting: the wake count less one per re-queue after a
     * wake during the task's own poll. A task that yields is not made to wait by anyone, so its
     * yields must not raise it in the HYBRID order. Read by the worker holding the cell.
     */
    long waitWakes() {
        return wakeCount() - selfRequeues;
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

    /**
     * The budget is the polling worker's (one poll at a time per worker), not the cell's. A poll
     * of a task whose handle was cancelled during the poll gets none: the runtime drops what
     * that poll returns, so an operation begun in it must not take anything (a channel's value,
     * a permit, bytes from a socket) that a task not cancelled could have had; refused, it
     * returns pending, and the runtime then retires the task and cancels the operation (found by
     * CI, session 41: a value sent after {@code cancel} returned was lost to such a receive).
     * The outcome is read after the worker's own field, a plain load on the usual path.
     */
    @Override
    public boolean consumeBudget() {
        return owner.consumeBudget() && !expired();
    }

    // ------------------------------------------------------------------ transitions

    private static long withRun(long s, int run) {
        return (s & ~RUN_MASK) | run;
    }

    /**
     * Records a wake-up.
     *
     * @param count whether to add to the wake count (cancellation schedules without counting)
     * @return {@code true} if the caller moved the cell from {@code IDLE} to {@code SCHEDULED}
     *     and must now enqueue it; {@code false} if it is queued, running or done already
     */
    boolean schedule(boolean count) {
        long add = count ? WAKE : 0L;
        for (;;) {
            long s = word();
            switch ((int) (s & RUN_MASK)) {
                case IDLE:
                    if (casWord(s, withRun(s, SCHEDULED) + add)) {
                        return true;
                    }
                    break;
                case SCHEDULED:                // queued or being polled: see the class overview
                    if (add == 0L || casWord(s, s + add)) {
                        return false;
                    }
                    break;
                default:
                    return false;              // DONE: nothing to do
            }
        }
    }

    /**
     * Whether the task's outcome is out: it will not be polled again, so an entry of its waker
     * in another handle's waiter stack is stale (see JoinHandle's overview).
     */
    @Override
    public boolean expired() {
        return (word() & OUTCOME_MASK) != 0;
    }

    /**
     * After a pending poll that began when the word was {@code before}: {@code IDLE} if the word
     * has not changed since (one CAS), else the cell stays {@code SCHEDULED} for the caller to
     * re-queue: a wake or a cancel came during the poll (see the class overview). The first time,
     * the cell is also added to {@code list} (the poller's {@link LiveTasks}) and marked
     * {@link #LISTED} in the same atomic step. Until then it is in the list of nobody: a cell
     * that has never returned pending is either queued (spawned and not yet polled, where
     * shutdown finds it in the queues), being polled, or done. Most tasks end in their first poll
     * and so never touch a list. Only the poller sets the bit (or the spawner, before the cell is
     * queued), so reading it here is exact.
     *
     * @param before the word as the poller read it before the poll
     * @return {@code true} if the task was woken (or cancelled) during its poll and the caller
     *     must re-queue it
     */
    boolean finishPending(LiveTasks list, long before) {
        long s = word();
        long listed = 0L;
        if ((s & LISTED) == 0L) {
            list.add(this);                    // before the release below: see LiveTasks
            listed = LISTED;
        }
        for (;; s = word()) {
            if (((s ^ before) & ~LISTED) != 0L) {
                break;                         // a wake or a cancel since the poll began
            }
            if (casWord(s, withRun(s, IDLE) | listed)) {
                return false;
            }
        }
        selfRequeues++;                        // before the offer that hands the cell on
        if (listed != 0L) {
            addToWord(listed);                 // others change only other bits
        }
        return true;
    }

    /**
     * Lists the cell at its spawn, unless it is listed already: for cells that must be found in
     * a list before their first pending poll (those spawned from outside, and those whose
     * spawn site or statistics {@link AsyncRuntime#busiestTasks} may show while they wait).
     */
    void listIn(LiveTasks list) {
        for (long s = word(); (s & LISTED) == 0L; s = word()) {
            if (casWord(s, s | LISTED)) {
                list.add(this);
                return;
            }
        }
    }

    /** Marks the cell done for good without an outcome; wakes after this do nothing. */
    void finish() {
        task = null;
        for (;;) {
            long s = word();
            if (casWord(s, withRun(s, DONE))) {
                return;
            }
        }
    }

    /**
     * The task's poll ended it: {@code DONE} and the outcome ({@link #VALUE} or
     * {@link #FAILED}) in one step, then the waiters are released. If the handle was cancelled
     * meanwhile, the outcome is dropped and the cell is only marked done; a dropped value that
     * is a connection of the library, or an {@code all}'s list or a {@code select}'s selection
     * holding one, is closed ({@link DroppedValues}), since nobody will ever receive it. An accept or a connect looks at {@link #expired()} just before it hands its
     * connection out, but a cancel after that look and before this outcome's CAS left the
     * connection open for good, held by nobody, its peer waiting (found by review, session 54).
     * Only when the value is dropped: a completion does no more than before. A value that a
     * handle the task awaited still holds (the task passed it on: a then whose second task is
     * that handle, a timeout over it; {@link Async#readFromHandle}) is left to the handle, whose
     * other awaiters receive it: it was closed under them. A value a receive took out of its
     * channel, or the permit an acquire's value ({@code null}) does not show, the task passing
     * it on (an {@code any} won by one, a then ending in one), is taken back instead
     * ({@link Async#dropValueOf}): the value goes back into the channel, the permit is released;
     * kept, the message was lost, the semaphore had one permit fewer for good.
     */
    void finish(long outcome, Object r) {
        AsyncTask<T> t = task;
        task = null;
        if (!complete(outcome, r, true) && !Async.readFromHandle(t)) {
            // but not a value that a handle the task awaited still holds for its other awaiters
            // (the task passed it on as its own): closed, it reached them closed
            try {
                // taken back by the receive or acquire it came from (a then ending in one, an any
                // won by one), else closed if it is a connection
                Async.dropValueOf(t, r);
            } catch (Throwable e) {
                AsyncRuntime.reportStray(e);   // the worker goes on
            }
        }
    }

    @Override
    void retireCancelled() {
        if (schedule(false)) {                 // idle: queue it so a worker retires it
            runtime.deliverWake(this);
        }
    }

    /** The calling worker, if it is one of this cell's runtime (see JoinHandle#blockedWorker). */
    @Override
    AsyncWorker blockedWorker() {
        if (runtime == null) {
            return null;
        }
        AsyncWorker w = AsyncWorker.current();
        return w != null && w.runtime == runtime ? w : null;
    }

    /**
     * Only the workers of its runtime poll a cell, so the one worker of a one-worker runtime
     * blocked in {@code get} on an unfinished cell of that runtime waits for itself: the task
     * never runs, and a shutdown from outside, which joins that worker, waits for good too.
     * With more workers a peer runs it (the parked watcher takes what the blocked worker left
     * queued: {@code StalledPollTest}), and once every worker is blocked so, the blocked workers
     * run queued tasks while they wait (AsyncWorker's <i>Blocking gets</i>). A lone worker would
     * be blocked by every such get, so it would always run the awaited task nested under the
     * waiting one; it keeps failing at once, as documented on {@link JoinHandle#get()}, which
     * points the caller at polling the handle instead.
     */
    @Override
    void refuseSelfDeadlock() {
        if (runtime == null || runtime.workers.length != 1) {
            return;
        }
        AsyncWorker w = AsyncWorker.current();
        if (w != null && w.runtime == runtime) {
            throw new IllegalStateException("a blocking get on the only worker of runtime " + runtime.name
                    + " would wait for itself: the awaited task runs on that worker; await the handle by "
                    + "polling it (Async.then, Async.map), or build the runtime with more workers");
        }
    }
}
