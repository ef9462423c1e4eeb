/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.queue.Injector;
import dev.spindle.queue.LifoSlot;
import dev.spindle.queue.OwnerFifo;
import dev.spindle.queue.WorkStealingDeque;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One worker thread of an {@link AsyncRuntime}.
 *
 * <h2>Queues</h2>
 *
 * <ul>
 *   <li>{@link #local}: a Chase-Lev deque. Tasks spawned from inside a task on this worker go
 *       here (the "cold ring" of {@link AsyncPolicy#HYBRID}); the owner pops newest first,
 *       peers steal oldest first. When it is full, the task goes to the injector instead:
 *       nothing is dropped.</li>
 *   <li>{@link #wakeChannel}: a lock-free MPMC queue receiving the wake-ups of tasks this worker
 *       polled last. Any thread offers; the owner drains it, and searching peers may take from
 *       it too.</li>
 *   <li>{@link #yielded}: the tasks that woke themselves during their poll (yields), FIFO, in
 *       an {@link OwnerFifo}: only the owner offers, anyone takes (one CAS each).</li>
 *   <li>{@link #admitted}: a run of cells this worker took from the shared injector and has
 *       not started, FIFO, an {@link OwnerFifo} too; started one at a time where a single cell
 *       used to be taken from the injector (see {@link #admit()}).</li>
 *   <li>{@link #hot} (HYBRID only): the owner's private priority queue of woken tasks, most
 *       woken first (see {@link HotQueue}).</li>
 * </ul>
 *
 * <p>A cell that an injector (a wake channel, the shared injector) could not take, for want of
 * memory for a segment, waits in the runtime's {@link StrandedCells}, which every worker looks
 * at with the injector (when it is empty, and at the periodic look) and before it parks.
 *
 * <h2>The LIFO slot (WORK_STEALING)</h2>
 *
 * <p>A task that the running task wakes or spawns goes into {@link #lifo}, a one-task slot (a {@link LifoSlot}), and
 * runs right after the running task's poll, ahead of every queue (as in Tokio's scheduler): a
 * message's receiver, a lock's next holder or a joining parent runs on the cache that holds what
 * it needs, and no other worker is woken for it. A second wake in the same poll, or a wake
 * after a spawn, moves the previous occupant to where it would have gone without the slot (the
 * local deque, or its last poller's wake channel, waking a peer as usual); a spawn behind a
 * spawned occupant goes to the local deque itself (see {@link #offerLifo}). The slot is bounded: after
 * {@value #LIFO_MAX} slot runs in a row the occupant goes to those queues instead, so tasks that
 * keep waking each other cannot starve what is queued ({@code LifoSlotTest}). A task woken during
 * its own poll (a yield) never uses it: that wake finds the cell {@code SCHEDULED} (being
 * polled) and only counts, and the poller re-queues it at a FIFO end (see <i>Fairness</i>). A
 * filled slot does not count as visible work, so it wakes no parked peer; a peer that is
 * searching anyway may take it (a CAS). A task left there by a poll that then blocks its worker (which a poll should
 * not do) is taken by the parked watcher once the poll has run on for an interval (see
 * {@link #park}), so a poll that waits for what it scheduled is not stranded.
 *
 * <p>HYBRID has no slot: its hot queue orders woken tasks by how often they waited, and a slot
 * would let the latest wake-up overtake that order (and the batch bound that keeps two tasks
 * waking each other from starving a third, {@code HybridOrderTest}).
 *
 * <h2>The loop</h2>
 *
 * <p>WORK_STEALING: LIFO slot → local deque → wake channel and yield queue, in turns →
 * admitted cells, then the injector. HYBRID: hot queue,
 * refilled from the wake channel (up to {@value #WAKE_BATCH} at a time) whenever it is empty, each of its picks
 * followed by a turn of the yield queue → cold deque (only when hot and the wake channel are empty)
 * → yield queue → admitted cells, then the injector.
 *
 * <p><b>Hot batches.</b> The hot queue takes new wake-ups only when it has run empty, so it runs
 * in batches: within a batch the most-woken task goes first (FIFO among equals); a task woken
 * while a batch runs waits for the next batch. Refilling on every pick instead would let two
 * tasks that keep waking each other (their counts only grow) overtake a less-woken task
 * forever; with batches a woken task waits at most one batch
 * ({@code HybridOrderTest.tasksWakingEachOtherDoNotStarveALessWokenTask}). Every
 * {@value #GLOBAL_INTERVAL}th pick looks at the admitted cells and the injector first, so tasks
 * waiting there (spawned from outside, or re-queued when a yield queue was full) are never
 * starved by local work; if both are empty, that pick takes the wake channel (WORK_STEALING) or the cold deque (HYBRID)
 * first, so neither starves behind a deque or hot queue that never empties (each takes turns
 * there with the yield queue, which would otherwise starve it or be starved:
 * {@code HybridOrderTest.aYieldingTaskAndAHotQueueThatNeverEmptiesDoNotStarveTheColdDeque}). When
 * everything is empty the worker searches (at most half the workers at once): it steals from
 * peers' deques, wake channels, slots, yield queues and admitted cells in random order, then
 * tries the injector; failing that it parks, following the pools' idle protocol
 * ({@code IdleCoordinator} in spindle-core). From a peer's deque it takes about half, up to
 * {@value #STEAL_BATCH_LIMIT} cells, with one CAS on the victim's top per cell
 * ({@code WorkStealingDeque.stealBatchOrNull}, the pools' batch steal; the owner pops without a
 * CAS, so a thief may not move top past more than one cell at a time): it runs the oldest and
 * keeps the rest in its own deque, where a third worker may steal them in turn.
 *
 * <h2>Fairness</h2>
 *
 * <p>Each poll gets a fresh budget ({@link Context#consumeBudget()}). A task woken during its
 * own poll (it yielded, or its budget ran out) is re-queued at a FIFO end, never at the LIFO end
 * of the deque or into the hot queue: the tail of this worker's yield queue. It runs again only
 * after the tasks already waiting there; under work-stealing the yield queue and the wake
 * channel take turns while both hold cells (as fair as the one FIFO queue yields shared with
 * wake-ups before), and every 61st pick looks at the injector first; on one worker a task that
 * keeps waking itself cannot starve another.
 *
 * <p><b>Hybrid yields take turns with the hot queue.</b> After every {@value #YIELD_EVERY}
 * pick from the hot queue, the cells in the yield queue at that moment run (their number is
 * {@link #yieldedCount}, an owner-kept count; cells yielding meanwhile wait for the next turn),
 * then the hot queue goes on. With the hot queue empty, nothing changes: cold, then the yields.
 * A yield is a task that was running, often in the middle of something others wait for (a
 * lock held across a yield): resuming it soon shortens that wait for everyone, while a task
 * taken from the hot queue was waiting and may well find the resource still taken. Drawing the
 * yield queue only once hot and cold are empty (and every 61st pick) kept a yielding task
 * waiting for as long as wake-ups kept arriving, which under contention is always: a task
 * holding a lock across a yield held it some sixty picks, and every waiter paid for it
 * ({@code HybridOrderTest.yieldsTakeTurnsWithTheHotQueue}). The hot order uses the wakes
 * that found a task waiting, not its yields ({@link TaskCell#waitWakes()}).
 *
 * <h2>Blocking gets</h2>
 *
 * <p>A poll should not block, but code ported from {@code CompletableFuture.join} on a pool
 * does: a task spawns a child and waits in {@code child.get()}. Only this runtime's workers poll
 * its cells, so once every worker waits so, nothing runs the children and the runtime hangs for
 * good. While a peer is free, it runs them (a parked watcher takes even a LIFO slot's occupant:
 * {@code StalledPollTest}). When none is, the blocked workers run queued tasks themselves, from
 * within their wait ({@link #helpWhileBlocked}), as a {@code ForkJoinPool} worker helps in a
 * join. Compensating with a spare thread, as the pools do, would need more than the pools have:
 * this runtime's worker set is fixed (each worker's queues, LIFO slot and wake channel, where a
 * task's wake-ups go to the worker that polled it last, and the idle protocol's indexes), so a
 * spare would need queues that outlive it, or would own the blocked worker's queues while the
 * blocked poll may resume and use them. Helping reuses this loop's own picks.
 *
 * <p>The invariants:
 * <ul>
 *   <li>Only when needed: {@link AsyncRuntime#blockedInGet} counts the workers blocked in a
 *       {@code get}, less those running a task meanwhile. Workers blocked in a get of a handle
 *       of their own runtime's task help only while it equals the worker count: then, without
 *       help, the awaited tasks could never run. A worker blocked in a get of a promise or of
 *       another runtime's handle is counted (it runs nothing while it waits) but does not help
 *       (outside threads may complete those): left uncounted, a peer blocked in the get of
 *       the task that completes that promise never helped, and both waited for good
 *       ({@code AsyncThirdReviewRegressionTest}). The price: with such a worker counted, an
 *       outside completion might have ended the wait without help, so helping there is no
 *       longer only ever the sole way on; a helped task that waits for a task beneath it on the
 *       stack then hangs where the outside completion would have freed the runtime. That is
 *       the trade-off helping already made, now taken for every blocked worker (a
 *       {@code ForkJoinPool} compensates for every managed block, whatever it waits for). So
 *       a task run from within a wait can delay the waiting task's resumption (it resumes once
 *       that poll returns) but cannot make a runtime that would have made progress hang: a
 *       helped task that in turn waits for a task below it on the stack hangs, as every worker
 *       did before.</li>
 *   <li>Whoever brings the count to the worker count sees it and helps (each worker re-counts
 *       itself after each task it ran), so one worker always looks; one that finds nothing
 *       polls the I/O drivers and timers (nobody is parked to drive them) and looks again every
 *       {@link #HELP_RECHECK_NANOS}, as does every worker that sees the count full.</li>
 *   <li>Reentrancy: the awaited task first if this worker's LIFO slot or the newest cells of its
 *       deque hold it (taken through its entry there, {@link #takeAwaited}: a cell is claimed
 *       only by taking its entry, see {@link TaskCell}), else the picks are the loop's own
 *       ({@link #takeLifo}, {@link #next}, {@link #search}, after spilling peers' hot queues as
 *       a watcher does), so the LIFO slot, the queues' owner-only ends and the fairness
 *       counters are used as by the loop, on the owner's thread. {@link #polling} stays set (a
 *       poll is under way: a spawn or wake during the helped poll may use the slot, whose
 *       occupant this loop or the round then runs), the waiting poll's budget is saved and restored around the helped poll, and a search that
 *       finds nothing stops searching before the wait parks, so the idle protocol never counts
 *       a blocked worker as searching or parked. Each helped poll is a plain {@link #runCell}:
 *       its cell's state machine is unchanged; an interrupt it leaves is the waiting get's,
 *       which throws {@link InterruptedException} as a parked one would. Nothing is helped once
 *       the runtime closes.</li>
 *   <li>Closing: nothing is polled any more, and shutdown cancels what is left only after every
 *       worker has exited, so a blocked worker looks again every {@link #HELP_RECHECK_NANOS}
 *       and, once every worker left is blocked so, cancels the task it awaits if nobody polls it
 *       ({@link #cancelAbandoned}): its get ends, its poll and then its loop too.</li>
 * </ul>
 *
 * <p>The Promela model {@code spindle-stress/model/blocked_get.pml} (checked by
 * {@code model/check.sh} in the stress module's {@code verify}) covers these counts and
 * decisions: {@code blockedInGet} never counts a worker running a poll (also when a helped
 * runCell throws, or a get waits inside a helped poll), the closing check of
 * {@link #cancelAbandoned} passes only while every worker left waits in a get, every task is
 * done although every worker blocks, and a close ends every worker's loop; with
 * {@code -DPROMISE} one worker waits for a promise (counted, never helping) that only a peer's
 * help completes. Its mutants (the decrement left out or the increment made early, the two
 * reads of that check swapped, the increment outside a {@code finally}, an untimed park, the
 * promise wait left uncounted) each fail it.
 */
final class AsyncWorker extends AsyncWorkerPadAfter implements Runnable, LoneTaskWatch.Peer {

    /** Every this many picks, the injector is looked at first. */
    static final int GLOBAL_INTERVAL = 61;
    private static final int WAKE_BATCH = 256;
    /** HYBRID: the yields get a turn after every this many picks from the hot queue. */
    static final int YIELD_EVERY = 1;

    private static final VarHandle POLLS;
    private static final VarHandle POLLING;
    private static final VarHandle WAKEUPS;
    private static final VarHandle STEALS;
    private static final VarHandle PARKS;
    private static final VarHandle UNPARKS;
    private static final VarHandle SPAWNED;
    private static final VarHandle RETIRED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            POLLS = l.findVarHandle(AsyncWorkerHotFields.class, "polls", long.class);
            POLLING = l.findVarHandle(AsyncWorkerHotFields.class, "polling", boolean.class);
            WAKEUPS = l.findVarHandle(AsyncWorkerHotFields.class, "wakeups", long.class);
            STEALS = l.findVarHandle(AsyncWorkerHotFields.class, "steals", long.class);
            PARKS = l.findVarHandle(AsyncWorkerHotFields.class, "parks", long.class);
            UNPARKS = l.findVarHandle(AsyncWorkerHotFields.class, "unparks", long.class);
            SPAWNED = l.findVarHandle(AsyncWorkerHotFields.class, "spawned", long.class);
            RETIRED = l.findVarHandle(AsyncWorkerHotFields.class, "retired", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The watcher's sleep between two looks while a peer holds work ({@link #park}): a poll that
     * blocks with work queued behind it has that work taken within two of these (10 to 20 ms).
     * (The work-stealing pool looks every 500 µs while a peer holds queued work, backing off to
     * 4 ms while peers are only awake; a fixed 500 µs here,
     * where busy peers are watched whether or not they hold work, cost the watcher 4.5 % of a
     * core beside one busy peer on the development machine.)
     */
    static final long WATCH_INTERVAL_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * The watcher's longest sleep while no peer holds work, busy or idle: about ten wake-ups a
     * second (0.16 % of a core on the development machine); a poll that queues work and then
     * blocks after such a sleep began waits up to twice this.
     */
    static final long WATCH_IDLE_SLEEP_CAP_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * How long a worker blocked in a {@code get} while every worker is sleeps before it looks
     * for work again (see <i>Blocking gets</i>); the watcher's interval.
     */
    static final long HELP_RECHECK_NANOS = WATCH_INTERVAL_NANOS;

    /** Capacity of {@link #yielded}. */
    static final int YIELD_CAPACITY = 1024;
    /** Capacity of {@link #admitted}; a share from the injector is at most half of it. */
    static final int ADMIT_CAPACITY = 1024;
    /** Consecutive runs from the LIFO slot before the queues get a pick. */
    static final int LIFO_MAX = 3;
    /**
     * Most cells a search moves from a victim's local deque at once (about half of it, up to
     * this): the first runs here, the rest wait in this worker's deque, where taking them costs
     * no further search and no further CAS on the victim's top. One at a time, a peer draining a
     * spawner's deque met the spawner's pushes at every steal (spawn_many on 2 workers: 318 ns
     * per task, 116 on one). Larger than the pools' {@link WorkStealingDeque#DEFAULT_STEAL_BATCH}
     * (32): a burst of spawns here is thousands of tiny cells, and taking up to 256 made
     * spawn_many about 6 % faster on JDK 17 (session 39, in one JVM against 32; 1,024 was no
     * better, JDK 25 and the other suite rows unchanged). A pool's deque mostly holds fewer,
     * larger tasks, and its fork tasks are stolen one at a time.
     */
    static final int STEAL_BATCH_LIMIT = 256;

    /**
     * The thread of a worker. It carries its worker so that {@link #current()} is a type test
     * and a field load rather than a {@code ThreadLocal} lookup, which every spawn and wake on a
     * worker makes. It inherits no {@link InheritableThreadLocal} values, as spindle-core's
     * workers do not: the building thread's (a request's context, where a runtime is built
     * inside one) were otherwise seen by every task of the runtime. Its context class loader and
     * priority are the building thread's, which makes it.
     */
    static final class WorkerThread extends Thread {
        final AsyncWorker worker;

        WorkerThread(AsyncWorker worker, String name) {
            super(null, worker, name, 0, false);
            this.worker = worker;
        }
    }

    /** The worker whose loop runs on this thread, or {@code null} on any other thread. */
    static AsyncWorker current() {
        Thread t = Thread.currentThread();
        if (t instanceof WorkerThread) {
            AsyncWorker w = ((WorkerThread) t).worker;
            return w.running ? w : null;
        }
        return null;
    }

    final AsyncRuntime runtime;
    /** Cells spawned on this worker, for shutdown; touched only by this worker's thread. */
    final LiveTasks live = new LiveTasks();
    final int index;
    final WorkStealingDeque<TaskCell<?>> local;
    final Injector<TaskCell<?>> wakeChannel = new Injector<>();
    /**
     * Tasks that woke themselves during their poll (yields, spent budgets), FIFO; filled only by
     * this worker, stealable by any. An {@link OwnerFifo}: a yield costs this worker one CAS (its
     * take) where the wake channel, a multi-producer queue, cost four atomic operations, half
     * of a yield's cost on one worker (52 against 27 ns when the re-queue cost nothing). Kept
     * apart from the wake channel so that a yield does not count towards HYBRID's hot order,
     * and apart from the shared injector so that a yield is not a contended write. When full
     * (more than {@value #YIELD_CAPACITY} yielded tasks on one worker), a yield goes to the
     * injector.
     */
    final OwnerFifo<TaskCell<?>> yielded = new OwnerFifo<>(YIELD_CAPACITY);
    /**
     * Cells this worker took from the injector as a run and has not started yet, FIFO; filled
     * only by this worker, stealable by any. They are started at the pace single cells from the
     * injector were (one at every periodic look, or when nothing else is runnable), so a share
     * taken at once does not start hundreds of tasks ahead of the ones already waiting; see
     * {@link #admit()}.
     */
    final OwnerFifo<TaskCell<?>> admitted = new OwnerFifo<>(ADMIT_CAPACITY);
    /** HYBRID only; null otherwise. */
    private final HotQueue hot;

    volatile Thread thread;
    /** Whether {@link #run()} is under way; written and read only by this worker's thread. */
    private boolean running;
    /**
     * Owner-only: set while this worker wakes the tasks of the I/O events or timers it drives
     * ({@link DrivingParker}), so that their wake-ups come to this worker.
     */
    boolean driving;

    /**
     * The LIFO slot (WORK_STEALING): the task last woken or spawned by the task this worker is
     * polling; it runs right after that poll. Only this worker fills it, only while it polls, so
     * it always looks at the slot before it searches or parks. Searching peers may take it (a
     * CAS), but a filled slot is not work that wakes a parked peer (see the class overview).
     */
    private final LifoSlot<TaskCell<?>> lifo = new LifoSlot<>();
    /** Watches busy peers while this worker is the runtime's watcher (see {@link #park}). */
    private final LoneTaskWatch watch;
    /**
     * The watch's stop test, made once (the pool's worker keeps one too): a capturing lambda
     * written at the call would be a new object at every park that watches.
     */
    private final BooleanSupplier closing;

    AsyncWorker(AsyncRuntime runtime, int index, int localCapacity) {
        this.runtime = runtime;
        this.index = index;
        this.local = new WorkStealingDeque<>(64, localCapacity);
        this.hot = runtime.policy == AsyncPolicy.HYBRID ? new HotQueue(WAKE_BATCH) : null;
        this.watch = new LoneTaskWatch(index, runtime.watchedPeers, runtime.workers.length);
        this.closing = () -> runtime.closing;
    }

    long polls() {
        return (long) POLLS.getOpaque(this);
    }

    long wakeups() {
        return (long) WAKEUPS.getOpaque(this);
    }

    long steals() {
        return (long) STEALS.getOpaque(this);
    }

    long parks() {
        return (long) PARKS.getOpaque(this);
    }

    long unparks() {
        return (long) UNPARKS.getOpaque(this);
    }

    /** Tasks spawned from this worker's tasks and accepted; owner writes, anyone reads. */
    long spawned() {
        return (long) SPAWNED.getOpaque(this);
    }

    /** Cells this worker marked done; owner writes, anyone reads. */
    long retired() {
        return (long) RETIRED.getOpaque(this);
    }

    /** Counts an accepted spawn by one of this worker's tasks; owner only. */
    void countSpawned() {
        SPAWNED.setOpaque(this, spawned + 1);
    }

    /** Counts a cell this worker retired; owner only. */
    void countRetired() {
        RETIRED.setOpaque(this, retired + 1);
    }

    /**
     * Cells this worker finished that were in some worker's list of live tasks (its own or a
     * peer's): owner-written, read by {@link AsyncRuntime#sweepListsIfIdle} under the idle
     * protocol's lock while every worker is parked, which orders the reads after the writes.
     */
    long listedRetired;

    /**
     * Tasks waiting in this worker's stealable queues and its LIFO slot (not the owner-only hot
     * queue); racy.
     */
    long queued() {
        return local.size() + wakeChannel.size() + yielded.size() + admitted.size() + (lifo.isEmpty() ? 0 : 1);
    }

    // ------------------------------------------------------------------ loop

    @Override
    public void run() {
        running = true;
        try {
            loop();
        } catch (Throwable t) {
            runtime.workerDied(t);             // shut down rather than keep spawns it never runs
            throw t;                           // and let the thread's handler report it
        } finally {
            running = false;
            runtime.workerExited();
        }
    }

    /**
     * The worker's loop, as rounds ({@link #round}) that end at a park or after
     * {@value #PICKS_PER_ROUND} tasks, each entered afresh through the method's current compiled
     * code, as the pools' workers do ({@code PoolCore.runWorker} in spindle-core says why in
     * full). A loop that never returns keeps running the code HotSpot compiled for it while it
     * ran, after the JIT has replaced it, and its calls are not re-linked: here a replaced
     * compilation of this loop called an interpreted {@code next()} or {@code runCell} for the
     * rest of the run, and one runtime of the async benchmark ran 5 to 15 times slower (3 of 23
     * plain JVMs in session 18, 4 of 6 under JFR profiling; none of 6 with rounds:
     * docs/BENCHMARKS.md, session 18). A round that only counted tasks lasted as long as the
     * runtime took to run 65,536 of them, which under light load (bursts with idle gaps) is
     * minutes: 4 of 10 JVMs running a fan-out of 1,000 tasks at a time on JDK 25 beside virtual
     * threads ran it 4 to 6 times slower for the whole run, none of 18 once a park ended the round
     * (session 22). A park costs far more than the return and call that end a round there. This
     * loop goes round too rarely per task to be compiled itself.
     */
    private void loop() {
        while (!runtime.closing) {
            round();
            rounds++;
        }
    }

    /** Rounds this worker's loop has begun again, for {@code WorkerRoundsTest}; owner-written. */
    volatile long rounds;

    /** Tasks a round runs at most before it returns to {@link #loop} (a park ends it sooner). */
    static final int PICKS_PER_ROUND = 1 << 16;

    /** Runs tasks until none is left (then parks once), {@value #PICKS_PER_ROUND} ran or the runtime closes. */
    private void round() {
        for (int picks = 0; picks < PICKS_PER_ROUND && !runtime.closing; ) {
            TaskCell<?> c = takeLifo();
            if (c == null) {
                c = next();
                if (c != null) {
                    stopSearching();
                } else {
                    c = search();
                }
            }
            if (c != null) {
                polling = true;
                try {
                    runCell(c);
                } catch (Throwable dying) {
                    inHand = c;                // this worker dies: shutdown fails c (see drain)
                    throw dying;
                }
                polling = false;
                picks++;
                continue;
            }
            park();
            return;                            // a park ends the round: see loop()
        }
    }

    // ------------------------------------------------------------------ the LIFO slot

    /**
     * Takes the task a wake or spawn of the last poll left in the LIFO slot, unless it has had
     * {@value #LIFO_MAX} turns in a row: then it goes where it would have gone without the slot
     * (a FIFO end, behind what waits there) and {@code null} is returned, so the queues get a
     * pick.
     */
    private TaskCell<?> takeLifo() {
        TaskCell<?> c = lifo.take();
        if (c == null) {
            lifoRuns = 0;
            return null;
        }
        if (lifoRuns < LIFO_MAX) {
            lifoRuns++;
            return c;
        }
        lifoRuns = 0;
        if (lifoSpawned && tick + 1 < GLOBAL_INTERVAL) {
            // A spawned cell would go to the top of the local deque, and next() (short of its
            // periodic look at the injector) pops that very cell back: run it now, without the
            // deque's fence and a wake of an idle peer to steal one link of a chain. next()'s
            // tick is counted as that detour counted it, so the periodic look comes as often.
            tick++;
            return c;
        }
        unslot(c, lifoSpawned);
        return null;
    }

    /**
     * Puts {@code c}, just scheduled by the task this worker is polling (a wake-up or a spawn),
     * in the LIFO slot; what the slot held goes where it would have gone without the slot.
     * Owner only (the caller runs on this worker).
     *
     * <p>A spawn while the slot holds a spawned cell is not for the slot: it goes to the local
     * deque, where the displaced cell would have gone, and the slot keeps the earlier spawn. A
     * task that spawns in a loop thus pays one deque push a spawn instead of an exchange of the
     * slot and a push of what it held (spawn_many 4–5 % faster in one JVM, BENCHMARKS session
     * 36); the next pops take the deque newest-first, as before, with the slot's cell ahead of
     * them. A wake-up still takes the slot over from a spawn: the woken task is what a message
     * hand-off waits for.
     *
     * @return {@code false} if the slot is not for {@code c}: no poll is under way, the policy is
     *     HYBRID (see the class overview), or {@code c} is a spawn behind a spawned cell
     */
    boolean offerLifo(TaskCell<?> c, boolean spawned) {
        if (!polling || hot != null) {
            return false;
        }
        if (spawned && lifoSpawned && !lifo.isEmpty()) {
            return false;                      // the caller pushes it to the deque: see above
        }
        TaskCell<?> prev = lifo.put(c);        // an empty slot is filled without an exchange
        boolean prevSpawned = lifoSpawned;     // peers only take from the slot: it is prev's
        lifoSpawned = spawned;
        if (prev != null) {
            unslot(prev, prevSpawned);
        }
        return true;
    }

    /** A searching peer's steal from the slot of this (busy) worker. */
    TaskCell<?> stealLifo() {
        return lifo.steal();
    }

    /** Where a cell leaving the slot goes: the local deque (a spawn), its owner's wake channel. */
    private void unslot(TaskCell<?> c, boolean spawned) {
        if (spawned) {
            pushLocal(c);
        } else {
            runtime.deliverToOwner(c, this);
        }
    }

    private TaskCell<?> next() {
        if (++tick >= GLOBAL_INTERVAL) {
            tick = 0;
            if (runtime.driver != null) {
                runtime.driver.pollNow(index); // I/O and timers, while every worker may be busy
            }
            TaskCell<?> c = runtime.stranded.take();  // rare: see StrandedCells
            if (c == null) {
                c = admit();
            }
            if (c == null) {
                c = hot == null ? pollWakeOrYield() : popColdOrYield();
            }
            if (c != null) {
                return c;
            }
        }
        TaskCell<?> c;
        if (hot == null) {
            c = local.pop();
            if (c == null) {
                c = pollWakeOrYield();
            }
        } else {
            hot.lock();                        // never held across a poll: see HotQueue
            try {
                c = nextHybrid();
            } finally {
                hot.unlock();
            }
        }
        return c != null ? c : admit();
    }

    /** HYBRID's pick (the caller holds the hot queue's lock): hot, with turns for the yields, then cold. */
    private TaskCell<?> nextHybrid() {
        TaskCell<?> c;
        if (yieldTurn > 0) {
            c = takeYielded();                 // the yields' turn is on
            if (c != null) {
                return c;
            }
        }
        if (hot.isEmpty()) {
            collectWakeups();                  // refill only when empty: see the class overview
        }
        if (!hot.isEmpty()) {
            if (hotPicks >= YIELD_EVERY && yieldedCount > 0) {
                hotPicks = 0;                  // the yields' turn: those queued now, FIFO
                yieldTurn = yieldedCount;
                c = takeYielded();
                if (c != null) {
                    return c;
                }
            }
            // Saturating: with no yield waiting, a plain count would wrap negative after 2^31
            // hot picks, and the yields would then lose their turn for as many picks again.
            if (hotPicks < YIELD_EVERY) {
                hotPicks++;
            }
        }
        c = hot.poll();
        if (c != null) {
            // counted as it leaves hot, not as it enters: a watcher may spill it back to the
            // wake channel, and it would enter again
            WAKEUPS.setOpaque(this, wakeups + 1);
        } else {
            c = local.pop();                   // cold is drawn from only when hot is empty
        }
        if (c == null) {
            c = takeYielded();
        }
        return c;
    }

    /**
     * The next cell from outside: the oldest of {@link #admitted}, else a run from the injector.
     *
     * <p>A run, not one cell: this worker takes its fair share of what is queued
     * ({@code Injector.pollShare}), starts the oldest and keeps the rest in {@link #admitted},
     * where idle peers may steal them. Tasks spawned together from outside were allocated
     * together; taken one cell at a time by alternating workers, neighbours wrote each other's
     * cache lines at every poll (yield_many on 2 workers: 64 ns a yield, 30 with runs).
     *
     * <p>Started at the old pace: the admitted cells are started here, one per call, and this is
     * called where one cell used to be taken from the injector (every periodic look, and when
     * nothing else is runnable). Pushed into the local deque instead, a share was popped ahead
     * of every woken and yielded task, so hundreds of tasks started at once: a FIFO semaphore
     * with 1,000 tasks spawned from outside went from 20 to 40 waits a task and a quarter of
     * its throughput.
     */
    private TaskCell<?> admit() {
        TaskCell<?> c = admitted.poll();
        if (c != null) {
            return c;
        }
        Injector<TaskCell<?>> injector = runtime.injector;
        if (injector.isEmpty()) {
            return runtime.stranded.take();    // cells no queue could take: see StrandedCells
        }
        c = injector.pollShare(admitted, runtime.workers.length);
        if (c != null && !admitted.isEmpty()) {
            runtime.parking.notifyWorkRacy();  // a parked peer may steal from the run
        }
        return c;
    }

    /**
     * WORK_STEALING: the head of the wake channel or of {@link #yielded}, taking turns while
     * both hold cells (see {@link #yieldNext}).
     */
    private TaskCell<?> pollWakeOrYield() {
        TaskCell<?> c;
        if (yieldNext) {
            c = yielded.poll();
            if (c != null) {
                yieldNext = false;
                return c;
            }
            return pollWakeChannel();
        }
        c = pollWakeChannel();
        if (c != null) {
            yieldNext = true;
            return c;
        }
        return yielded.poll();
    }

    /**
     * HYBRID's periodic pick when the injector is empty: the cold deque or the yield queue,
     * taking turns while both hold cells (see {@link #yieldNext}). Each can starve without it:
     * the cold deque behind a hot queue that never empties (yields get a turn after every hot
     * pick, cold none), the yields behind a cold deque that never empties (cold is popped
     * whenever hot is empty). Always the yields first, a task that keeps yielding left the cold
     * deque to wait for the hot queue to run dry.
     */
    private TaskCell<?> popColdOrYield() {
        TaskCell<?> c;
        if (yieldNext) {
            c = takeYielded();
            if (c != null) {
                yieldNext = false;
                return c;
            }
            return local.pop();
        }
        c = local.pop();
        if (c != null) {
            yieldNext = true;
            return c;
        }
        return takeYielded();
    }

    private TaskCell<?> pollWakeChannel() {
        TaskCell<?> c = wakeChannel.poll();
        if (c != null) {
            WAKEUPS.setOpaque(this, wakeups + 1);
        }
        return c;
    }

    /** HYBRID: the head of {@link #yielded}, keeping the owner's count of it. */
    private TaskCell<?> takeYielded() {
        TaskCell<?> c = yielded.poll();
        if (c == null) {
            yieldedCount = 0;                  // only the owner offers: it is empty now
            yieldTurn = 0;
        } else {
            if (yieldedCount > 0) {
                yieldedCount--;
            }
            if (yieldTurn > 0) {
                yieldTurn--;
            }
        }
        return c;
    }

    /** HYBRID: refills the empty hot queue from the wake channel; counted as each is picked ({@link #nextHybrid}). */
    private void collectWakeups() {
        TaskCell<?> c;
        while (!hot.isFull() && (c = wakeChannel.poll()) != null) {
            hot.add(c);                        // allocates nothing: the queue has room for a batch
        }
    }

    /** Whether this worker has anything a peer could take (hot excluded: it is private). */
    boolean hasStealable() {
        return !local.isEmpty() || !wakeChannel.isEmpty() || !yielded.isEmpty() || !admitted.isEmpty();
    }

    private TaskCell<?> search() {
        if (!searching) {
            searching = runtime.parking.tryStartSearching(runtime.workers.length);
            if (!searching) {
                return null;
            }
        }
        AsyncWorker[] ws = runtime.workers;
        int n = ws.length;
        TaskCell<?> c = null;
        if (n > 1) {
            long bottomBefore = local.bottomIndex();
            int start = ThreadLocalRandom.current().nextInt(n);
            for (int k = 0; k < n && c == null; k++) {
                AsyncWorker v = ws[(start + k) % n];
                if (v == this) {
                    continue;
                }
                c = v.local.stealBatchOrNull(local, STEAL_BATCH_LIMIT);
                if (c == null) {
                    c = v.wakeChannel.poll();
                }
                if (c == null) {
                    c = v.stealLifo();
                }
                if (c == null) {
                    c = v.yielded.steal();
                }
                if (c == null) {
                    c = v.admitted.steal();
                }
            }
            if (c != null) {
                // what a batch moved here is the rise of this deque's bottom index, not its size
                // now: a third worker may already have stolen part of the batch from this deque
                // (the pools' Worker.stealOnce counts the same way); a cell from any other queue
                // of the victim leaves the index where it was and counts one
                STEALS.setOpaque(this, steals + 1 + (local.bottomIndex() - bottomBefore));
                if (!local.isEmpty()) {
                    runtime.parking.notifyWorkRacy();  // a third worker may take from this batch
                }
            }
        }
        if (c == null) {
            c = admit();
        }
        if (c != null) {
            stopSearching();
        }
        return c;
    }

    private void stopSearching() {
        if (!searching) {
            return;
        }
        searching = false;
        if (runtime.parking.stopSearching() && runtime.hasVisibleWork()) {
            runtime.parking.notifyWork();
        }
    }

    /**
     * Hands every cell still queued here, and the one a dying worker had in hand, to
     * {@code action}; for {@link AsyncRuntime}'s shutdown, once every worker has exited (so the
     * owner-only structures are stable and their writes visible).
     */
    void drainForShutdown(Consumer<TaskCell<?>> action) {
        if (inHand != null) {
            action.accept(inHand);
        }
        for (TaskCell<?> c; (c = lifo.steal()) != null; ) {
            action.accept(c);
        }
        for (TaskCell<?> c; (c = local.stealOrNull()) != null; ) {
            action.accept(c);
        }
        for (TaskCell<?> c; (c = wakeChannel.poll()) != null; ) {
            action.accept(c);
        }
        for (TaskCell<?> c; (c = yielded.steal()) != null; ) {  // the owner has exited
            action.accept(c);
        }
        for (TaskCell<?> c; (c = admitted.steal()) != null; ) {
            action.accept(c);
        }
        if (hot != null) {
            hot.lock();                        // a watcher may be spilling it
            try {
                for (TaskCell<?> c; (c = hot.poll()) != null; ) {
                    action.accept(c);
                }
            } finally {
                hot.unlock();
            }
        }
    }

    /**
     * Parks, following the idle protocol. One parked worker at a time does not sleep for good
     * while a peer is busy: it watches the peers ({@link LoneTaskWatch}) and takes queued work
     * from one whose poll runs on for a whole {@linkplain #WATCH_INTERVAL_NANOS interval}. Work in a LIFO slot wakes nobody (nor,
     * when a racy notice misses, work in a deque), which is right while polls are short; a poll
     * that blocks (on a handle it just spawned, say) would otherwise strand it for good
     * ({@code StalledPollTest}). One watcher is enough, and keeps the cost at one timed wake-up
     * an interval while a peer holds work, backing off to one a tenth of a second while none
     * does. The role, and how it passes from one parked worker to the next so that no work is
     * stranded while workers sleep unwatching, is {@link dev.spindle.internal.WatcherRole}'s.
     */
    private void park() {
        live.pruneWhenIdle();                  // idle moment: drop done cells from the list
        runtime.pruneOutsideList();            // and from the list of spawns from outside
        IdleCoordinator parking = runtime.parking;
        boolean nobodySearching = parking.prepareToPark(index, searching);
        searching = false;
        boolean visible = nobodySearching && runtime.hasVisibleWork();
        if (visible) {
            parking.notifyWork(index);         // may wake this very worker
        }
        PARKS.setOpaque(this, parks + 1);
        if (!visible) {
            runtime.sweepListsIfIdle();        // the last to park: cells finished off their list's worker
        }
        LoneTaskWatch.Outcome o = runtime.watcher.await(index, watch, closing, WATCH_INTERVAL_NANOS,
                WATCH_IDLE_SLEEP_CAP_NANOS, Integer.MAX_VALUE);
        if (o != LoneTaskWatch.Outcome.WOKEN) {
            return;                            // RESUME, EXIT: neither parked nor searching, go and look
        }
        if (parking.isNotified(index) && !parking.isTerminated()) {
            UNPARKS.setOpaque(this, unparks + 1);
        }
        searching = !runtime.closing;          // woken workers are counted as searching
    }

    /** For {@link LoneTaskWatch}: changes with every poll this worker starts. */
    @Override
    public long progress() {
        return polls();
    }

    /**
     * For {@link LoneTaskWatch}: whether this worker holds a cell a peer may take, or (HYBRID) one
     * in its hot queue, which a watcher makes takeable with {@link #stalled}.
     */
    @Override
    public boolean holdsWork() {
        return !lifo.isEmpty() || hasStealable() || (hot != null && hot.sizeRacy() != 0);
    }

    /**
     * For {@link LoneTaskWatch}, on the watcher's thread: this worker's poll ran on with work
     * queued. Its hot queue's cells go to its wake channel, where the watcher (and any searcher)
     * can take them; if this worker is picking meanwhile, it was not stalled, and nothing moves.
     */
    @Override
    public void stalled() {
        HotQueue h = hot;
        if (h != null && h.sizeRacy() != 0 && h.tryLock()) {
            try {
                h.spillTo(wakeChannel);
            } finally {
                h.unlock();
            }
        }
    }

    /** For {@link LoneTaskWatch}: whether this worker is polling a task (a racy read). */
    @Override
    public boolean isBusy() {
        return (boolean) POLLING.getOpaque(this);
    }

    // ------------------------------------------------------------------ blocking gets

    /**
     * Whether this worker, blocked in a {@code get} of a handle of its runtime's task, must run
     * queued tasks while it waits: every worker is blocked so (see <i>Blocking gets</i>).
     */
    boolean mustHelp() {
        return !runtime.closing && runtime.blockedInGet.get() >= runtime.workers.length;
    }

    /**
     * Runs one queued task of this runtime from within a blocked {@code get}, on this worker's
     * thread (see <i>Blocking gets</i>): {@code awaited} itself if it is queued, wherever it is,
     * else the loop's next pick. Any other task run here sits above the waiting poll on this
     * stack, and one that waits for that poll (or for what only that poll completes) waits for
     * good. Running the awaited task first, as a {@code ForkJoinPool} join runs the joined task
     * when it finds it, takes no such task while the one that ends the wait could run: with a
     * peer counted while it waits for a promise, the first pick was the task the waiting poll
     * had just spawned after the awaited one, which waited for that poll, where without help
     * the peer, once its promise completed, ran both in turn
     * ({@code PromiseGetSecondReviewRegressionTest}). The awaited task is taken through its queue
     * entry, the only way a cell is claimed ({@link TaskCell}), and so only from where this
     * worker may take it out of order: its LIFO slot or the newest cells of its own deque
     * ({@link #takeAwaited}), which is where the waiting poll's own spawns are. Queued elsewhere
     * (a wake channel, deeper in the deque, a peer's queues), it is reached oldest first
     * ({@link #takeOldestFirst}, then the peers): the slot and the deque's top, where a task
     * that waits for the waiting poll most likely is, come last
     * ({@code PromiseGetSecondReviewRegressionTest}).
     *
     * @param awaited the task whose handle the get waits for
     * @return whether a task ran (the caller then re-reads its handle before waiting again)
     */
    boolean helpWhileBlocked(TaskCell<?> awaited) {
        TaskCell<?> c = takeAwaited(awaited);
        if (c == null && awaited.state() == TaskCell.SCHEDULED) {
            // queued where takeAwaited does not reach: oldest first, towards it (see above)
            c = takeOldestFirst();
            if (c == null) {
                stallPeers();
                c = search();
            }
        }
        if (c == null) {
            c = takeLifo();
        }
        if (c == null) {
            c = next();
        }
        if (c == null) {
            stallPeers();
            c = search();
            if (c == null) {
                stopSearching();               // the wait parks outside the idle protocol
                if (runtime.driver != null) {
                    runtime.driver.pollNow(index);  // nobody parked drives I/O and timers now
                }
                return false;
            }
        }
        stopSearching();
        int budget = budgetLeft;               // the waiting poll's
        runtime.blockedInGet.decrementAndGet();  // running: not blocked while this poll lasts
        boolean interrupted;
        try {
            interrupted = runCell(c);
        } finally {
            runtime.blockedInGet.incrementAndGet();
            budgetLeft = budget;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();  // meant for the wait, or at least arrived during it
        }
        return true;
    }

    /** Lets a search find what blocked peers hold in their hot queues (HYBRID). */
    private void stallPeers() {
        for (AsyncWorker v : runtime.workers) {
            if (v != this) {
                v.stalled();                   // a blocked peer's hot queue, where a search finds it
            }
        }
    }

    /**
     * A helper's pick while the awaited task is queued but not where {@link #takeAwaited} looks
     * (this worker's wake channel or yield queue, its deque below the newest
     * {@value #AWAITED_SEARCH_DEPTH} cells, the injector, a peer): this worker's FIFO queues
     * (wake channel and yields, HYBRID's hot queue), then its admitted cells and the injector,
     * then the oldest cell of its own deque; {@code null} if all are empty (the caller then
     * searches the peers). Not the LIFO slot or the deque's top: that is where the waiting poll's
     * own latest spawns are, and one of them that waits for that poll, run beneath it, waits for
     * good while the awaited task sits queued (a task woken from outside into the wake channel
     * while its parent spawned such a task into the slot; an awaited task under 64 newer spawns
     * and such a task on top). Taking from the oldest end moves towards the awaited task; each
     * take is the queue's own, so a cell is still polled only by whoever took its entry.
     */
    private TaskCell<?> takeOldestFirst() {
        TaskCell<?> c;
        if (hot == null) {
            c = pollWakeOrYield();
        } else {
            hot.lock();                        // never held across a poll: see HotQueue
            try {
                c = hot.poll();
                if (c != null) {
                    WAKEUPS.setOpaque(this, wakeups + 1);
                } else {
                    c = pollWakeChannel();
                }
            } finally {
                hot.unlock();
            }
            if (c == null) {
                c = takeYielded();
            }
        }
        if (c == null) {
            c = admit();
        }
        if (c == null) {
            TaskCell<?>[] oldest = new TaskCell<?>[1];  // a slow path: only while every worker is blocked
            if (local.takeOldest(oldest, 1) == 1) {
                c = oldest[0];
            }
        }
        return c;
    }

    /** How many of its deque's newest cells a helper looks through for the awaited one. */
    static final int AWAITED_SEARCH_DEPTH = 64;

    /**
     * Takes {@code awaited}'s queue entry if this worker's LIFO slot or the newest
     * {@value #AWAITED_SEARCH_DEPTH} cells of its deque hold it, for {@link #helpWhileBlocked};
     * owner only. From the deque, the cells above it are popped and pushed back in their order
     * (each pop and push the owner's own operation, so a thief racing for any of them takes it
     * or leaves it as with any pop); a thief that takes the awaited cell first runs it itself,
     * and this returns {@code null}. A slow path: it runs only while every worker is blocked in
     * a get. The depth bounds its cost, so that gets in a loop over many queued handles (oldest
     * first, the deepest) do not pop and push back the whole deque at every help: the task a
     * waiting poll has just spawned, the one a nested get waits for, is among the newest; a
     * deeper one runs when a pick reaches it.
     *
     * @return {@code awaited}, now this worker's to poll, or {@code null}
     */
    private TaskCell<?> takeAwaited(TaskCell<?> awaited) {
        if (awaited.state() != TaskCell.SCHEDULED) {
            return null;                       // idle or done: no entry anywhere
        }
        if (lifo.remove(awaited)) {
            return awaited;
        }
        TaskCell<?>[] above = null;
        int n = 0;
        TaskCell<?> found = null;
        for (TaskCell<?> x; n < AWAITED_SEARCH_DEPTH && (x = local.pop()) != null; ) {
            if (x == awaited) {
                found = x;
                break;
            }
            if (above == null) {
                above = new TaskCell<?>[AWAITED_SEARCH_DEPTH];
            }
            above[n++] = x;
        }
        while (n > 0) {
            TaskCell<?> x = above[--n];
            if (!local.offer(x)) {
                runtime.enqueue(runtime.injector, x);  // never dropped (the deque had room for it)
            }
        }
        return found;
    }

    /**
     * Ends a blocked {@code get} that a closing runtime would never end: workers take no task
     * once it closes, and shutdown cancels the tasks left only after every worker has exited, so
     * a worker waiting for a task nobody polls any more never exits, and a shutdown joining it
     * waits for good ({@code BlockingGetShutdownRegressionTest}). Once every worker still running
     * is blocked so, no poll under way can run or finish {@code awaited} but one of theirs: if
     * {@code awaited} is not being polled, this cancels it, as shutdown would, and the get ends
     * (a worker polling it is blocked in a get too, which ends so in turn).
     *
     * <p>Nor can a poll of {@code awaited} that this worker runs, beneath this get on its own
     * stack: a get that helped ran the task now waiting here, and the poll it interrupted resumes
     * only once this get ends. Had each task a thread of its own, shutdown would end the gets
     * below it and then this one; here it waited for good ({@code BlockingGetCycleRegressionTest}).
     * So that one is cancelled too: its handle ends as shutdown would end it, and its poll, once
     * it resumes, finds it cancelled. A poll running on a peer is left alone: mostly the peer's
     * innermost one, blocked in a get that ends so in turn, or tasks that wait on each other as
     * they would on threads of their own (a poll beneath a peer's help is not told apart).
     * Whose poll is under way is {@code awaited.polledBy}: exact when it names this worker
     * (only this worker writes that value, and it clears it after its poll); a peer polling it
     * wrote its own before counting itself blocked, which this read of the count follows. Only
     * for a get without a timeout: a timed one ends by itself, the poll beneath then resumes
     * and may complete, as polls under way do at shutdown; cancelled here, its value was dropped
     * ({@code SecondReviewRegressionTest}).
     *
     * @param timed whether the get has a timeout
     * @return whether this call cancelled {@code awaited} (the caller then re-reads its state)
     */
    boolean cancelAbandoned(TaskCell<?> awaited, boolean timed) {
        if (!runtime.closing || runtime.running.get() > runtime.blockedInGet.get()) {
            return false;
        }
        int run = awaited.state();
        int by = awaited.polledBy;
        boolean beneath = !timed && by == index + 1;
        boolean unpolled = by == 0 && (run == TaskCell.IDLE || run == TaskCell.SCHEDULED);
        return (unpolled || beneath) && awaited.cancel(false);
    }

    // ------------------------------------------------------------------ running a task

    /**
     * Polls {@code c} once, if it is still scheduled, and completes or retires it.
     *
     * @return whether the poll, or what its completion or retirement ran, left this thread
     *     interrupted: the status is cleared here, so that no later park returns at once and the
     *     next task polled here does not find it, and a get that ran this poll from within its
     *     wait ({@link #helpWhileBlocked}) owns the interrupt
     */
    private boolean runCell(TaskCell<?> c) {
        boolean interrupted = pollCell(c);
        // The completion runs user code on this thread after the poll's interrupt was cleared
        // (a toCompletableFuture callback, a waker; a Cancellable when the cell is retired), and
        // an interrupt that left (a callback restoring one it caught) reached the next task
        // polled here: its blocking get threw InterruptedException, its file channel was closed
        // (CompletionInterruptDoesNotReachTheNextTaskTest)
        return Thread.interrupted() || interrupted;
    }

    /** {@link #runCell} but for the interrupts that the completion leaves. */
    private <T> boolean pollCell(TaskCell<T> c) {
        // This worker took c's one queue entry, so it alone polls c now: no CAS (see TaskCell).
        long before = c.word();
        if ((before & JoinHandle.RUN_MASK) != TaskCell.SCHEDULED) {
            return false;                      // not scheduled: only after shutdown's cleanup
        }
        if (JoinHandle.cancelRequested(before)) {
            Throwable stray = runtime.abandon(c, this);  // the handle is cancelled already
            if (stray != null) {
                AsyncRuntime.reportStray(stray);
            }
            return false;
        }
        c.owner = this;
        c.polledBy = index + 1;
        budgetLeft = runtime.budget;
        POLLS.setOpaque(this, polls + 1);
        Poll<T> p;
        try {
            p = TaskInsight.wanted(runtime) ? TaskInsight.poll(c, this) : c.task.poll(c);
        } catch (Throwable ex) {
            boolean interrupted = Thread.interrupted();  // a poll must not leave the worker interrupted
            countListed(c);
            countRetired();                    // before the outcome: see AsyncRuntime#retire
            c.finish(JoinHandle.FAILED, ex);
            c.polledBy = 0;                    // after the outcome: see TaskCell.polledBy
            return interrupted;
        }
        // cleared: an interrupt left by a poll would make every later park return at once
        boolean interrupted = Thread.interrupted();
        if (p == null) {
            // Not a Poll: the task's fault, so the task fails and the worker goes on, as when a
            // poll throws. It may have registered its waker before, so it is withdrawn as well.
            NullPointerException npe = new NullPointerException("AsyncTask.poll returned null; "
                    + "return Poll.pending() (after arranging a wake-up) or Poll.ready(value). Task: "
                    + c.task.getClass().getName());
            Throwable stray = runtime.abandon(c, this);
            if (stray != null) {
                npe.addSuppressed(stray);
            }
            c.fail(npe);
            c.polledBy = 0;
            return interrupted;
        }
        if (p.isReady()) {
            countListed(c);
            countRetired();                    // before the outcome: see AsyncRuntime#retire
            c.finish(JoinHandle.VALUE, p.value());
            c.polledBy = 0;                    // after the outcome: see TaskCell.polledBy
        } else {
            c.polledBy = 0;                    // before the closing CAS: see TaskCell.polledBy
            if (c.finishPending(live, before)) {
                // Woken during its own poll (a yield): to a FIFO end of this worker, never the
                // LIFO end of the deque, and no contended write: the yield queue. Work-stealing
                // takes from it and the wake channel in turns; hybrid gives it turns with the hot
                // queue (see the class overview). Not the wake channel: a multi-producer queue
                // costs a yield four atomic operations, and under HYBRID a task that keeps
                // yielding would climb the hot order though nothing made it wait.
                if (!yielded.offer(c)) {
                    runtime.enqueue(runtime.injector, c);  // full: never dropped
                } else if (hot != null) {
                    yieldedCount++;
                }
                runtime.parking.notifyWorkRacy();
            }
        }
        return interrupted;
    }

    /**
     * Counts a cell about to finish here if a list of live tasks holds it (see
     * {@link #listedRetired}): every way a cell ends on a worker (ready, failed, abandoned after a
     * cancel or a broken poll) counts, or a list could keep it while the runtime idles.
     */
    void countListed(TaskCell<?> c) {
        if ((c.word() & JoinHandle.LISTED) != 0L) {
            listedRetired++;
        }
    }

    /** Takes one unit of the budget of the poll under way; the polled cell's context asks. */
    boolean consumeBudget() {
        if (budgetLeft <= 0) {
            return false;
        }
        budgetLeft--;
        return true;
    }

    /** Where a task spawned on this worker goes. */
    void pushLocal(TaskCell<?> c) {
        if (!local.offer(c)) {
            runtime.enqueue(runtime.injector, c);  // full: overflow to the injector, never dropped
        }
        runtime.parking.notifyWorkRacy();
    }
}

/**
 * Padding before {@link AsyncWorkerHotFields}: 128 bytes, so that the fields this worker writes on
 * every poll share no cache line (nor its adjacent-line prefetch pair) with the objects allocated
 * just before the worker, which are often another worker's queues. HotSpot lays out superclass
 * fields before subclass fields, so the hierarchy fixes the order; the pools' {@code Worker} is
 * laid out the same way. Bytes, not longs: HotSpot also puts a subclass's small fields in a
 * superclass's alignment holes, and with longs here and after the hot fields the hot
 * {@code lifoRuns} took the hole at offset 12, on the line of the object before, and the worker's
 * {@code index}, which a waker of a task reads, the one just after {@code inHand}. Bytes fill the
 * holes themselves ({@code AsyncWorkerLayoutTest} checks the distances).
 */
abstract class AsyncWorkerPadBefore {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

/**
 * The fields an {@link AsyncWorker} writes on every poll, pick or spawn: owner-only state and
 * the statistics counters (written by the owner only, with opaque stores; read by anyone).
 * Peers read only {@link AsyncWorker}'s own fields (its queues, its thread), which sit after
 * {@link AsyncWorkerPadAfter}, so a thief's look at a victim does not pull the line the victim
 * is writing.
 */
abstract class AsyncWorkerHotFields extends AsyncWorkerPadBefore {
    /** Whether the last cell put in {@code AsyncWorker.lifo} was spawned (else woken); owner only. */
    boolean lifoSpawned;
    /** Runs from the slot in a row; at {@code AsyncWorker.LIFO_MAX} the queues get a pick. */
    int lifoRuns;
    /** What is left of the budget of the poll under way ({@link Context#consumeBudget()}). */
    int budgetLeft;
    /** Whether a poll (or the completion that follows it) is under way on this worker. */
    boolean polling;
    /**
     * The cell this worker was running when something escaped {@code AsyncWorker.runCell} and ended its
     * thread; shutdown fails it. Written only on that way out, not per task: a reference store
     * into this long-lived object would cost a full fence in G1's write barrier on every task.
     */
    TaskCell<?> inHand;
    boolean searching;
    /**
     * WORK_STEALING: whether the next pick from the FIFO queues tries {@code AsyncWorker.yielded} before
     * the wake channel. The two alternate while both hold cells, so a yield waits about as it
     * did when yields shared the wake channel, and neither queue starves the other. HYBRID: the
     * same for the periodic pick between {@code AsyncWorker.yielded} and the cold deque.
     */
    boolean yieldNext;
    int tick;
    /**
     * HYBRID: how many cells this worker put in {@code AsyncWorker.yielded} and has not taken back (peers
     * may have stolen some, so it can be too high; a poll that finds the queue empty resets it).
     */
    int yieldedCount;
    /** HYBRID: how many yielded cells still get their turn before the hot queue is refilled. */
    int yieldTurn;
    /**
     * HYBRID: picks from the hot queue since the yields' last turn, counted up to
     * {@code AsyncWorker.YIELD_EVERY} only: whether it got there is all that matters, and an
     * unbounded count wraps on a long run.
     */
    int hotPicks;
    // statistics: written by the owner only (opaque), read by anyone
    long polls;
    long wakeups;
    long steals;
    long parks;
    /** Parks that ended with work to look for (a wake-up, or events its own driving found). */
    long unparks;
    /** Tasks spawned by this worker's tasks, and cells this worker retired (for live tasks). */
    long spawned;
    long retired;
}

/** Padding after {@link AsyncWorkerHotFields}: see {@link AsyncWorkerPadBefore}. */
abstract class AsyncWorkerPadAfter extends AsyncWorkerHotFields {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q010, q011, q012, q013, q014, q015, q016, q017;
    byte q020, q021, q022, q023, q024, q025, q026, q027, q030, q031, q032, q033, q034, q035, q036, q037;
    byte q040, q041, q042, q043, q044, q045, q046, q047, q050, q051, q052, q053, q054, q055, q056, q057;
    byte q060, q061, q062, q063, q064, q065, q066, q067, q070, q071, q072, q073, q074, q075, q076, q077;
    byte q100, q101, q102, q103, q104, q105, q106, q107, q110, q111, q112, q113, q114, q115, q116, q117;
    byte q120, q121, q122, q123, q124, q125, q126, q127, q130, q131, q132, q133, q134, q135, q136, q137;
    byte q140, q141, q142, q143, q144, q145, q146, q147, q150, q151, q152, q153, q154, q155, q156, q157;
    byte q160, q161, q162, q163, q164, q165, q166, q167, q170, q171, q172, q173, q174, q175, q176, q177;
}
