/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.internal.WatcherRole;
import dev.spindle.internal.jfr.JfrGate;
import dev.spindle.internal.jfr.SpareRetireEvent;
import dev.spindle.internal.jfr.StealBatchEvent;
import dev.spindle.queue.ForkStack;
import dev.spindle.queue.LifoSlot;
import dev.spindle.queue.WorkStealingDeque;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One worker of a {@link WorkStealingPool}: its deque, its counters, and the loop its thread
 * runs. It works with the small state its pool's workers share ({@link Shared}: the injector,
 * its peers, {@link IdleCoordinator}, {@link Spares}) and with the pool's lifecycle
 * ({@link PoolCore}: stopping, termination, failures, interrupts), not with the pool's other
 * members.
 *
 * <h2>The loop</h2>
 *
 * <ol>
 *   <li>Every {@value #GLOBAL_INTERVAL}th turn, take one task from the injector first, so a
 *       stream of local work cannot starve external submissions (a batch only if the deque is
 *       empty: see {@link #takeOneFromInjector}).</li>
 *   <li>Take local work, newest first (the task's data is likely still in cache): the fork
 *       stack, then the deque, then the LIFO slot.</li>
 *   <li>Take a batch from the injector: one task to run and a fair share moved into the deque,
 *       where peers can steal it.</li>
 *   <li>Search: if fewer than half the workers are searching, steal about half a random
 *       victim's deque (one task if the oldest is a fork task; see {@link #stealOnce}), up to
 *       {@code stealAttempts} victims, checking the injector between rounds.</li>
 *   <li>Park, following the protocol in {@link IdleCoordinator}.</li>
 * </ol>
 *
 * <h2>Message passing</h2>
 *
 * <p>A runnable a worker submits (a reply, the next link of a chain) goes to this deque and,
 * popped newest first, is the next task this worker runs; when the worker holds no other task it
 * goes to the LIFO slot instead, which saves the deque's push and pop on a chain of hand-offs
 * (see "the LIFO slot" below). A deque push reads the idle word
 * ({@link IdleCoordinator#notifyWorkRacy}) and wakes a peer only if one is parked and nobody
 * searches, which in a stream of hand-offs is rare: at most a few wake-ups per thousand tasks
 * on ping-pong, yield-many, spawn-many-local and skynet (docs/BENCHMARKS.md, issue 14). Filling
 * the slot from a task that itself came out of the slot (a chain's next link) wakes nobody while
 * a parked worker holds the pool's watcher role ({@link WatcherRole}): the owner takes the task
 * itself next, and if the spawner blocks outside {@link dev.spindle.Spindle#blocking} instead,
 * the watcher takes it. Any other task's fill wakes a peer as a deque push does, since that
 * task may go on to compute while its child could run beside it. Tasks stay in the
 * deque rather than moving through the injector: the periodic
 * look takes one task from the injector, not a batch ({@link #takeOneFromInjector}).
 *
 * <p>The counters are written only by this worker (opaque stores) and read by
 * {@link WorkStealingPool#stats()} with opaque loads: cheap, and exact once the pool is quiet.
 * Parking ({@link #park}) is split along its concerns: registering and re-checking, a core
 * worker's sleep with the watcher role, and a spare's keep-alive.
 */
final class Worker extends BaseWorker implements LoneTaskWatch.Peer {

    /** Turns between forced looks at the injector (as Go and Tokio do; a prime). */
    static final int GLOBAL_INTERVAL = 61;
    /** Fork tasks kept in the fork stack before older ones move to the deque. */
    static final int FORK_STACK_CAPACITY = 8;
    /** Most tasks moved by one steal. */
    static final int STEAL_BATCH_LIMIT = WorkStealingDeque.DEFAULT_STEAL_BATCH;
    /** How long a joiner with nothing it may run waits before a spare runs other work. */
    static final long COMPENSATE_AFTER_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** Most hops a joiner follows from the awaited task's runner to the runner of what it awaits. */
    static final int MAX_RUNNER_HOPS = 8;

    private static final VarHandle STEALS;
    private static final VarHandle OVERFLOWED;
    private static final VarHandle JOINING;
    private static final VarHandle RUNNER_HELPS;
    private static final VarHandle DRAINED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STEALS = l.findVarHandle(WorkerHotFields.class, "steals", long.class);
            OVERFLOWED = l.findVarHandle(WorkerHotFields.class, "overflowed", long.class);
            JOINING = l.findVarHandle(Worker.class, "joining", ForkTask.class);
            RUNNER_HELPS = l.findVarHandle(Worker.class, "runnerHelps", long.class);
            DRAINED = l.findVarHandle(Worker.class, "drained", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The pool: its lifecycle ({@link PoolCore}), and the owner of the tasks this worker binds. */
    final WorkStealingPool pool;
    /** The queues, peers, idle protocol and spares this worker works with. */
    final Shared shared;
    final boolean spare;
    final WorkStealingDeque<Runnable> deque;
    /** The newest fork tasks, kept out of the deque; see "the fork stack" below. */
    final ForkStack<ForkTask<?>> forks = new ForkStack<>(FORK_STACK_CAPACITY, ForkTask::isNew);
    /** A runnable submitted while this worker held no other task; see "the LIFO slot" below. */
    final LifoSlot<Runnable> lifo = new LifoSlot<>();
    /** Watches the peers while this worker is parked with the watcher role (see {@link #park}). */
    private final LoneTaskWatch watch;
    private final BooleanSupplier exitCheck = this::mustExit;
    /**
     * The task this worker's innermost waiting join awaits, or {@code null}: written by the
     * owner around the wait (release), read by joiners that follow it (opaque; a hint).
     */
    @SuppressWarnings("unused")            // through JOINING
    private ForkTask<?> joining;
    /** Descendants taken from the awaited task's runner, or a runner further down (stats). */
    @SuppressWarnings("unused")            // through RUNNER_HELPS
    private long runnerHelps;
    /**
     * Tasks {@code shutdownNow} took from the top of this deque to hand back to its caller:
     * the deque counts them among the tasks taken from its top, but no worker stole them
     * (stats). Written by the draining thread (atomic adds: two may drain at once).
     */
    @SuppressWarnings("unused")            // through DRAINED
    private long drained;

    /**
     * Leaves the searching count; as the last searcher, wakes another if work is visible. This
     * worker's own deque counts in full: whatever is left there waits behind the task this
     * worker is about to run.
     */
    private void stopSearching() {
        if (!searching) {
            return;
        }
        searching = false;
        if (shared.idle.stopSearching() && (hasLocalWork() || shared.hasVisibleWork())) {
            shared.idle.notifyWork();
        }
    }


    Worker(WorkStealingPool pool, int index, boolean spare, int queueCapacity) {
        super(index, pool);
        this.tick = GLOBAL_INTERVAL;
        this.pool = pool;
        this.shared = pool.shared;
        this.spare = spare;
        this.deque = new WorkStealingDeque<>(Math.min(64, queueCapacity), queueCapacity);
        this.watch = new LoneTaskWatch(index, shared.watchedPeers, shared.workers.length, spare);
    }

    // ------------------------------------------------------------------ loop

    @Override
    boolean work() {
        shared.starvation.roundBegins();       // arms the backstop if no peer is parked
        for (int tasks = 0; tasks < TASKS_PER_ROUND; ) {
            if (pool.isStopping()) {
                return false;
            }
            Runnable task = nextLocalOrGlobal();
            if (task != null) {
                stopSearching();
            } else {
                task = search();
            }
            if (task != null) {
                runTopLevel(task);
                tasks++;
            } else {
                return park();                 // a park ends the round (see PoolCore.runWorker)
            }
        }
        return true;
    }

    /**
     * A new worker (a spare, mostly) is awake without having left a park, so it passes the role
     * on as a leaving worker does ({@link WatcherRole}): while it searches, a peer's slot fill
     * with the role free makes no wake-up (a searcher counts as one that will look), and if this
     * worker then takes other work that blocks, a parked core worker must be watching that peer.
     */
    @Override
    void started() {
        shared.watcher.leave(watch);
    }

    /**
     * After {@code shutdownNow} has drained the queues, a task that was already running may
     * still push: to this deque, or, when the deque is full, to the injector. Such late tasks
     * are run in the stop phase (see {@link PoolCore}) rather than lost.
     */
    @Override
    Runnable takeLate() {
        Runnable t = forks.pop();
        if (t == null) {
            t = deque.pop();
        }
        if (t == null) {
            t = lifo.take();
        }
        return t != null ? t : shared.injector.poll();
    }

    @Override
    void runLate(Runnable task) {
        runTopLevel(task);
    }

    private Runnable nextLocalOrGlobal() {
        runsSlotTask = false;                  // set again below if the task comes from the slot
        if (--tick <= 0) {
            tick = GLOBAL_INTERVAL;
            Runnable t = takeOneFromInjector();
            if (t != null) {
                return t;
            }
        }
        Runnable t = forks.pop();
        if (t == null) {
            t = deque.pop();
        }
        if (t == null) {
            t = lifo.take();                   // see "the LIFO slot"
            if (t != null) {
                runsSlotTask = true;           // a chain's next link: its own fill may be silent
                return t;
            }
        }
        return t != null ? t : takeFromInjector();
    }

    // ------------------------------------------------------------------ the LIFO slot

    /*
     * The LIFO slot (a LifoSlot, see its overview) holds a runnable that a task submitted to
     * this worker (execute: a reply, the next link of a chain) while the worker held no other
     * task: its fork stack, deque and slot were empty. Then the push is a release store into the
     * slot and the take one exchange, where the deque pays its push and, for its last element,
     * a CAS in the pop. Any other runnable goes to the deque as before.
     *
     * Order. The slot is filled only when the deque and the fork stack are empty, so everything
     * pushed afterwards is newer than the slot's task; the loop takes the fork stack, then the
     * deque, then the slot, which is newest first: the one LIFO order of the fork stack's rule
     * (WorkerForkStackTest) holds. (Tasks an injector batch or a steal moves into the deque are
     * not this worker's submissions and have no order with them, as before.) The slot never
     * runs ahead of the deque, so it needs no bound against starving it, and the loop goes
     * searching only after the slot's take found it empty.
     *
     * Tried first and dropped (docs/BENCHMARKS.md): the slot for every runnable, the newest
     * first, with a bound of 3 slot tasks in a row. Filling only an empty slot broke the LIFO
     * order; displacing the slot's task on each push (Tokio's rule) cost an exchange per task of
     * a burst, and skynet and spawn-many-local lost about a third against the deque.
     *
     * Thieves and the idle protocol. The slot is local work like the deque and the fork stack:
     * hasLocalWork and localSize count it, so a parking worker's re-check, the watcher's looks
     * and beginBlocking see it. Being the oldest local task, it is what a thief takes first
     * (stealOnce, one CAS).
     *
     * Who is woken for it. The owner takes the slot's task as soon as the running task returns,
     * so waking a parked peer for it only hands the peer a task to steal: on a chain of
     * hand-offs (chained-spawn, an actor's replies) that woke the idle peer about once per
     * hundred links, and the peer took the next link and moved the chain to its own thread, a
     * system call and a cache migration each time (SlotFillWakesNoWatchedPeerTest; chained-spawn
     * went from 1.0-1.5 to about 2.5 x ForkJoinPool on 2 cores, docs/BENCHMARKS.md, Session 46).
     * But a spawner may block after the fill, outside a blocking section, waiting for that very
     * task (LifoSlotPoolTest): someone must then take it. So a fill wakes nobody only while
     * the pool's watcher role is held (WatcherRole: one parked core worker at a time watches its
     * peers while any is awake, and takes work queued behind a task that runs on for a whole
     * interval); otherwise it makes the racy notification of a deque push. And only when the
     * filling task itself came out of the slot (runsSlotTask): a link of a chain after its first.
     * A task from anywhere else (a submission from outside, the deque, a steal) may go on
     * computing long after its fill, as in `pool.execute(side); compute();`, where an idle peer
     * must take the side task at once, as ForkJoinPool's push lets it: with every fill silent the
     * side task waited for the whole computation or the watcher's next look (up to about
     * WATCH_SLEEP_CAP_NANOS plus an interval), and a task that executes one child and computes as
     * long as the child ran at half ForkJoinPool's throughput on 2 workers (docs/BENCHMARKS.md,
     * Session 50; SlotFillWakesNoWatchedPeerTest, "a fill by a task that did not come from the
     * slot"). A chain's first fill so wakes a peer once, which finds the slot's task gone
     * or steals it (the chain then goes on from that peer), and its later links hand on silently.
     * A link that fills and then computes long is the bet lost: its successor waits for it or the
     * watcher, as any silent fill did before. Why the task is not
     * stranded: a blocked spawner is awake (not registered as parked), and a holder goes on
     * looking, at least once per WATCH_SLEEP_CAP_NANOS, for as long as any peer is awake, so it
     * sees the fill at some look whatever the order of the fill and its first look (no fence is
     * needed between the fill and the pusher's read of the role). If the holder is woken and
     * leaves, it frees the role and, the spawner being awake, nudges a parked core worker to take
     * it, whose looks do the same. The role is taken, and handed on, only while some peer is
     * awake (WatcherRole, "watching only while a peer is awake"): a fill with the role free wakes
     * a peer anyway, so a pool idle between submissions keeps no watcher, and a submission's
     * wake-up meets no timed look and makes no nudge. If no core worker is parked then (spares never take the role), nobody would watch:
     * every core worker leaving its wait so takes every peer's slot task (the first into its own
     * slot, any others into its deque) and runs them before it looks at the injector
     * (takeSlotTaskIfUnwatched; the loop's periodic injector look is put off by as many turns),
     * letting a peer know if it took more than one. A worker that parks later takes the role
     * and looks again. A stranded task is so taken by the watcher within about
     * WATCH_SLEEP_CAP_NANOS plus an interval, or at once by a worker leaving the role, where the
     * fill's wake-up had a peer take it at once; the common case, a spawner that does not block,
     * pays nothing. The idle protocol's
     * argument (IdleCoordinator, park.pml) does not depend on local pushes at all: a pusher
     * runs its own queues before it can park, so its notifications only spread work.
     *
     * A slot task is not counted as a steal (as the fork stack's): the deque's stolen count is
     * what the stats pair with steals.
     * After shutdownNow the drain takes the slot's task with a steal; a task that was running
     * may still fill it, and then runs it as a late task (takeLate).
     */

    // ------------------------------------------------------------------ the fork stack

    /*
     * The fork stack (a ForkStack, see its overview) holds the newest fork tasks this worker
     * spawned, up to FORK_STACK_CAPACITY of them; older ones are in the deque below it, so the
     * stack is simply the deque's bottom entries kept out of the deque. Pushing and popping it
     * costs the owner plain and release/opaque stores, where a deque pop costs a full fence: in
     * recursive fork/join a task is almost always joined by its forker while it is still among
     * the few newest, so nearly every task is pushed and taken back without a fence.
     *
     * Why this is safe without a fence or a CAS on the stack: only fork tasks go in it, and a
     * fork task is run only by whoever wins its NEW -> RUNNING CAS (ForkTask.tryRun). So the
     * stack may hand the same task to two threads (the owner, which pops it, and a thief that
     * read it just before); the CAS lets exactly one of them run it, and the other skips it.
     * Only the owner writes the stack; a thief never does, so it cannot erase or reorder
     * anything. A task displaced by a push into a full stack goes to the deque's bottom if it
     * has not started (a thief may still claim it through a stale read of the stack; the deque
     * entry then fails its CAS and is skipped), so no fork task is ever dropped, and the deque
     * entries stay older than the stack's.
     *
     * Thieves look at a peer's stack only when its deque is empty (stealOnce, takeDescendant),
     * and then take its oldest unstarted task, so they still take the oldest task first; a
     * worker that parks, blocks or watches a busy peer counts the stack as local work
     * (hasLocalWork, localSize), so a task in the stack is never hidden from idle workers. A task
     * taken from a peer's stack is not counted as a steal, on either side: only the task's start
     * CAS knows who won it, and the stats promise that tasks stolen by and stolen from add up.
     * After shutdownNow the owner runs its stack's tasks as late tasks (takeLate) rather than
     * have the drain return them: the drain could not claim them without running them.
     */

    // ------------------------------------------------------------------ the JIT's inlining depth

    /*
     * The JIT's inlining depth. Fork/join recursion runs through this code: a task's compute()
     * forks and joins, the join runs the child's compute() inline, and that forks and joins
     * again. C2 (HotSpot's optimising compiler) inlines along such a cycle until the chain of
     * inlined calls is MaxInlineLevel (15) deep, and lets a method appear twice in one chain
     * (MaxRecursiveInlineLevel 1). When the chain from compute() through the join back to
     * compute() was nine calls long (ComputeTask.join, ForkTask.join, the pool's awaitDone, its
     * worker check, helpJoin, runTask, tryRun, the user's compute bridge, compute), the second
     * copy of compute() in a compile hit the limit partway: its fork, its join and even the
     * constructors of its subtasks stayed calls, and VarHandle internals such as isDirect() showed
     * up as calls in profiles. Whether a JVM's compile took that shape depended on which method
     * C2 happened to compile first, so fib(30) on one worker took about 80 ms of CPU in some
     * fresh JVMs and 94-103 ms in others (docs/BENCHMARKS.md, session 13).
     *
     * So the fork and the join paths are kept flat: ForkTask.join calls helpJoin directly, whose
     * fast path runs the task itself rather than through runTask; ComputeTask.fork and the
     * pool's spawn from a worker call pushFork, which pushes without a further helper (before,
     * a spawned callable went through the pool's pushLocal, which also serves runnables and was
     * often compiled on its own, too big to inline). The cycle is then five calls (the join
     * bridge, ForkTask.join, helpJoin, tryRun, the compute bridge), and two copies of it plus a
     * VarHandle access (three levels) fit in fifteen whichever of compute, helpJoin or tryRun
     * C2 compiles as the root. Adding a call level to either path costs this margin: check a
     * change with -XX:+LogCompilation (the inline tree's "inlining too deep") before keeping it.
     */

    /**
     * Owner only: pushes a fork task that nobody has seen yet (forked, or spawned, from the task
     * running here) onto the fork stack, and lets an idle peer know, as any local push does
     * ({@code WorkStealingPool.pushLocal}). The caller has set its parent. Flat on purpose: see
     * "the JIT's inlining depth".
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool is stopped
     */
    void pushFork(ForkTask<?> f) {
        if (pool.isStopping()) {
            refuseFork(f);
        }
        ForkTask<?> displaced = forks.push(f);
        if (displaced != null) {
            spill(displaced);
        }
        shared.idle.notifyWorkRacy();
    }

    /**
     * A stopped pool refuses a fork: the task, bound to its frame by the fork, is unbound again
     * (see ForkTask.unbind), so that its join reports it never started and it can be forked
     * elsewhere, and the fork throws {@link java.util.concurrent.RejectedExecutionException}. Out
     * of {@link #pushFork}, which every fork runs, to keep that path as small as it was.
     */
    private void refuseFork(ForkTask<?> f) {
        f.unbind();
        pool.rejectIfStopped();
    }

    /** Owner only: a task the fork stack handed back goes to the deque's bottom, if it has not started. */
    private void spill(ForkTask<?> displaced) {
        if (displaced.isNew() && !deque.offer(displaced)) {
            overflow(displaced);
        }
    }

    /** Owner only: moves the fork stack's unstarted tasks to the deque (before a runnable's push). */
    void flushForkStack() {
        for (ForkTask<?> f; (f = forks.removeOldest()) != null; ) {
            if (f.isNew() && !deque.offer(f)) {
                overflow(f);
            }
        }
    }

    /** Owner only: whether the fork stack holds anything (maybe already claimed). */
    boolean forkStackInUse() {
        return !forks.isEmptyForOwner();
    }

    /** Any thread: the fork stack's oldest task that has not started, else {@code null}. */
    ForkTask<?> peekForkStack() {
        return forks.peekOldest();
    }

    /** Any thread: whether this worker holds a task it has not started (deque, fork stack, slot). */
    boolean hasLocalWork() {
        return !deque.isEmpty() || forks.peekOldest() != null || !lifo.isEmpty();
    }

    /** Any thread: tasks queued on this worker (deque, fork stack, slot); a racy estimate. */
    int localSize() {
        return deque.size() + forks.unclaimedCount() + (lifo.isEmpty() ? 0 : 1);
    }

    /**
     * The periodic look at the injector (every {@value #GLOBAL_INTERVAL}th turn) takes one task,
     * as Tokio's does, not a batch: the deque still holds local work, so a batch would only
     * wait there behind it, and into a nearly full deque it would overflow back to the injector
     * at the next push. With many tasks queued locally (ping-pong's thousand pairs) that cycle
     * moved half a deque to the injector and back every 61 tasks. A worker whose deque is empty
     * still takes a batch ({@link #takeFromInjector}).
     */
    private Runnable takeOneFromInjector() {
        var injector = shared.injector;
        if (injector.isEmpty()) {
            return null;
        }
        return deque.isEmpty() ? takeFromInjector() : injector.poll();
    }

    private Runnable takeFromInjector() {
        var injector = shared.injector;
        if (injector.isEmpty()) {
            return null;
        }
        // A fair share among the live workers (Injector.pollShare says why a run of them, and
        // why no more).
        Runnable t = injector.pollShare(deque, Math.max(1, shared.spares.live()));
        if (t != null && !deque.isEmpty()) {
            shared.idle.notifyWorkRacy();      // let a peer steal the rest of the batch
        }
        return t;
    }

    private Runnable search() {
        if (!searching) {
            searching = shared.idle.tryStartSearching(shared.spares.live());
            if (!searching) {
                return null;
            }
        }
        Runnable t = stealOnce(shared.stealAttempts);
        if (t == null) {
            t = takeFromInjector();
        }
        if (t != null) {
            stopSearching();
        }
        return t;
    }

    /**
     * Probes up to {@code attempts} random victims, taking about half of the first non-empty
     * deque into this worker's own, or just its oldest task if that is a fork task.
     *
     * <p>Why one fork task: a worker that joins a task this one stole helps by taking the
     * stolen task's subtasks from the top of this deque ({@link #takeDescendant}). They are at
     * the top only if nothing else was stolen with the task: this deque is empty when a steal
     * starts, so afterwards it holds the stolen task and what it spawns. Steal-half would put the
     * stolen task's siblings on top, which the joiner may not run; it would wait instead, and
     * the pool would need spare threads to keep its cores busy. Runnables, which nobody joins,
     * keep the cheaper distribution of steal-half.
     */
    Runnable stealOnce(int attempts) {
        Worker[] ws = shared.workers;
        int n = shared.slotsInUse();
        if (n <= 1) {
            return null;
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int a = 0; a < attempts; a++) {
            Worker v = ws[rnd.nextInt(n)];
            if (v == null || v == this) {
                continue;
            }
            Runnable slotted = v.lifo.isEmpty() ? null : v.lifo.steal();
            if (slotted != null) {
                emitSteal(v, 1);               // an event, not a counted steal: see "the LIFO slot"
                return slotted;                // the victim's oldest local task
            }
            int limit = v.deque.peekTop() instanceof ForkTask<?> ? 1 : STEAL_BATCH_LIMIT;
            long bottomBefore = deque.bottomIndex();
            Runnable t = v.deque.stealBatchOrNull(deque, limit);
            if (t != null) {
                // What the batch moved here, from this deque's own bottom index: not its size
                // after the steal, since a peer may already have stolen some of the batch from
                // this deque (it counts those as its steals, and this deque as stolen from, so
                // steals and stolenFrom would no longer add up). Read once: the event reports
                // what was counted.
                int taken = 1 + (int) (deque.bottomIndex() - bottomBefore);
                STEALS.setOpaque(this, steals + taken);
                emitSteal(v, taken);
                if (!deque.isEmpty()) {
                    shared.idle.notifyWorkRacy();
                }
                return t;
            }
            ForkTask<?> f = v.deque.isEmpty() ? v.peekForkStack() : null;
            if (f != null) {
                return f;                      // claimed by its run's CAS, or skipped there
            }
            if (a % 8 == 7 && !shared.injector.isEmpty()) {
                return null;                   // let the caller take from the injector
            }
        }
        return null;
    }

    private void emitSteal(Worker victim, int tasks) {
        if (JfrGate.open() && StealBatchEvent.enabled()) {
            StealBatchEvent.emit(pool.name(), index, victim.index, tasks);
        }
    }

    /**
     * Runs a task from a nested frame (inside a join).
     *
     * <p><b>Recorded ancestry.</b> {@link #current} need not be the task whose code runs in the
     * innermost frame: it is a <em>recorded</em> frame, an ancestor of that task or the task
     * itself, and spawned tasks take it as their {@code parent}. So every recorded parent is a
     * true ancestor, and {@code ForkTask.descendsFrom} never claims a task that is not a real
     * descendant, which is what keeps helping joins free of deadlock. A child of the recorded
     * frame ({@code parent == current}: the common inline join of a task this frame spawned)
     * therefore runs without being recorded; its own children are recorded as children of the
     * same ancestor. That saves two reference stores into this long-lived object per inline
     * join, each a full fence in G1's write barrier. The price is precision: a joiner waiting
     * for such an unrecorded child itself (rare: usually only its spawner joins it, and runs it
     * here) does not recognise that child's subtasks as ones it may help with, and waits.
     * Any other task, for instance one run inline because a joiner found it unstarted in a
     * peer's deque, is recorded for its run and the outer frame's record restored after.
     */
    void runTask(Runnable task) {
        if (task instanceof ForkTask<?> f && f.parent == current) {
            if (f.tryRun()) {
                afterTask();
            }
            return;
        }
        ForkTask<?> outer = current;
        try {
            runRecorded(task);
        } finally {
            current = outer;
        }
    }

    /**
     * Runs a task from the loop, with a clean interrupt status: an interrupt still pending is
     * stray (a {@code cancel(true)} that arrived as its task ended, say) and is dropped, unless
     * the pool is stopping.
     *
     * <p><b>Interrupts and nested tasks.</b> A task run inside a join ({@link #runTask}) runs
     * with the joining frame's interrupt status as it is: it is part of that frame's
     * computation, and an interrupt pending there is the frame's own (its {@code cancel(true)},
     * say), which clearing would hide from it for good. As with {@link java.util.concurrent.FutureTask}
     * run inside another task, the interrupt of a nested task cancelled as it ends may in turn be
     * seen by the frame that joined it; the next top-level task never sees it.
     */
    private void runTopLevel(Runnable task) {
        pool.dropStrayInterrupt();
        runRecorded(task);
    }

    /**
     * Runs a task with {@link #current} set to it. {@code current} is not restored after it:
     * nothing reads it between top-level tasks, and every write of a reference into this
     * long-lived object costs a GC write barrier on the hottest path ({@link #runTask} restores
     * it for a nested run). {@link #park} clears it, so an idle worker does not keep its last
     * task (and that task's result) reachable.
     */
    private void runRecorded(Runnable task) {
        try {
            if (task instanceof ForkTask<?> f) {
                current = f;
                if (!f.tryRun()) {
                    return;                    // already run by a joiner, or cancelled
                }
            } else {
                if (current != null) {
                    current = null;
                }
                task.run();
            }
        } catch (Throwable ex) {
            pool.reportFailure(thread, ex);
        }
        afterTask();
    }

    private void afterTask() {
        countExecuted();
    }

    /** How a wait ended (see {@link #park}). */
    private static final int WOKEN = 0;
    private static final int RESUME = 1;
    private static final int TIMED_OUT = 2;
    private static final int EXIT = 3;
    private static final int UNWATCHED = 4;

    /**
     * Parks until woken with work to look for, following {@link IdleCoordinator}. The waiting
     * itself has two concerns, one method each: a core worker sleeps, watching its peers while it
     * holds the pool's watcher role ({@link #awaitWatching}), and a spare sleeps at most its
     * keep-alive and then retires ({@link #sleepAsSpare}). Spares never hold the role (its watch
     * of awake peers would hold a spare past its keep-alive): a spare that parks with nobody
     * searching watches only its peers' queued work ({@link #watchQueuedWork}), as every worker
     * did before the role. One that wakes, starts or retires passes the role on as any worker does
     * ({@link WatcherRole#leave}).
     *
     * @return {@code false} if the worker should exit instead
     */
    private boolean park() {
        Runnable hook = beforePark;
        if (hook != null) {
            hook.run();
        }
        // Drop the record of the last top-level task, which runRecorded leaves behind to spare
        // the hot path a reference store: an idle worker would otherwise keep that finished task,
        // and its result, reachable for as long as it stays idle. A park is off the hot path.
        if (current != null) {
            current = null;
        }
        for (;;) {
            if (spare && shared.spares.hasExcess()) {
                beginRetiring();               // before it stops searching: see Spares.retirements
                stopSearching();               // hands the search to a parked peer if work remains
                Runnable retireHook = Spares.beforeRetire;
                if (retireHook != null) {
                    retireHook.run();
                }
                if (shared.spares.tryRetire()) {
                    // Its last search may have left a task whose racy notification it swallowed
                    // (a searcher counts as one that will look) and that no look of the last
                    // searcher counts (a lone task): pass the role on as a leaving worker does.
                    shared.watcher.leave(watch);
                    retired = true;            // its SpareRetire event says so as it ends: ended()
                    // A spare that was parked leaves the stack here without beginning a round;
                    // the watch may have dropped the pool for that park (StarvationWatch, "Why no
                    // arming is missed"), so re-arm it as a round would.
                    shared.starvation.roundBegins();
                    endRetiring();             // out of live: see Spares.retirements
                    return false;
                }
            }
            boolean watchable = register();
            endRetiring();                     // parked again, if it had begun to retire
            if (pool.isShutdown()) {
                pool.tryTerminate();
            }
            countPark();
            int outcome;
            if (spare) {
                outcome = watchable ? watchQueuedWork() : UNWATCHED;
                if (outcome == UNWATCHED) {
                    outcome = sleepAsSpare();
                }
                if (outcome != EXIT) {
                    shared.watcher.leave(watch); // awake again: see WatcherRole (spares never hold it)
                }
            } else {
                outcome = awaitWatching();
            }
            parkRegistered = false;
            switch (outcome) {
                case WOKEN:
                    countUnpark();
                    searching = true;          // the waker counted this worker as searching
                    return true;
                case RESUME:
                    return true;               // neither parked nor searching: go and look
                case TIMED_OUT:
                    continue;                  // neither parked nor searching: retire or park again
                default:
                    return false;
            }
        }
    }

    /**
     * Whether this spare's thread ends because it retired (its pool had more unblocked workers than
     * it needs), not with its pool; for {@link #ended}. Its own thread only; a slot's Worker is
     * started again for a later spare, so {@link #ended} clears it.
     */
    private boolean retired;

    /**
     * Whether this spare has begun to retire and not yet left {@code live} or parked again (see
     * {@code Spares.retirements}); its own thread only.
     */
    private boolean retiring;

    private void beginRetiring() {
        if (!retiring) {
            shared.spares.retirements.begin();
            retiring = true;                   // after the begin: a begin that failed is not owed a close
        }
    }

    private void endRetiring() {
        if (retiring) {
            shared.spares.retirements.end();
            retiring = false;                  // after the close: one that failed is made at the end
        }
    }

    /**
     * A spare records its end, however it ends, so that a recording's {@code SpareStart} events
     * less its {@code SpareRetire} events are the spares still running: once only for retiring
     * here, a spare that ended with its pool (a graceful shutdown's end, or {@code shutdownNow})
     * went unrecorded, and counted as running for good. The reason tells them apart.
     */
    @Override
    void ended() {
        endRetiring();                         // a bracket left open by an error: see Spares
        if (!spare) {
            return;
        }
        boolean byRetiring = retired;
        retired = false;
        if (JfrGate.open() && SpareRetireEvent.enabled()) {
            String reason = byRetiring ? SpareRetireEvent.RETIRED
                    : pool.isStopping() ? SpareRetireEvent.STOPPED
                    : pool.isShutdown() ? SpareRetireEvent.SHUTDOWN
                    : SpareRetireEvent.FAILED;
            SpareRetireEvent.emit(pool.name(), index, reason);
        }
    }

    /** Run by a worker as it finds no task and goes to park, before it registers, if set: a seam for tests. */
    static volatile Runnable beforePark;

    /**
     * Goes on after an {@link Error} thrown by this worker's loop outside any task (see
     * {@link PoolCore#runWorker}), leaving a park it had registered for as a woken worker
     * leaves one: its pool counts it among its live workers ({@code Spares.live}), so a
     * graceful shutdown waited for it to park and never terminated once its thread had ended.
     */
    @Override
    boolean survives(Throwable e) {
        if (parkRegistered) {
            leaveRegisteredPark(shared.idle, shared.watcher, watch, true);
        }
        return true;
    }

    /**
     * Registers this worker as parked; if nobody is searching then, re-checks the queues (see
     * {@link IdleCoordinator#prepareToPark}) and, if work is visible, wakes a worker for it (this
     * one, perhaps: its wait then returns at once).
     *
     * @return whether a spare should watch its peers' queued work while parked (nobody else
     *     searches, and no work is visible)
     */
    private boolean register() {
        IdleCoordinator idle = shared.idle;
        boolean nobodySearching = idle.prepareToPark(index, searching);
        parkRegistered = true;
        searching = false;
        if (nobodySearching) {
            if (shared.hasVisibleWork()) {
                idle.notifyWork();             // may wake this very worker
            } else {
                return true;
            }
        }
        return false;
    }

    /** Whether this worker must stop waiting: the pool stops or terminated. */
    private boolean mustExit() {
        return pool.isStopping() || shared.idle.isTerminated();
    }

    /** After a wake-up: {@link #WOKEN}, or {@link #EXIT} if the wake-up was the pool's end. */
    private int woken() {
        return mustExit() ? EXIT : WOKEN;
    }

    /**
     * A core worker's wait: until woken; meanwhile, if it holds the pool's watcher role (one
     * parked core worker at a time, taken only while a peer is awake: {@link WatcherRole}), it
     * watches its peers, and takes work
     * queued behind a task that runs on for a whole interval ({@link #RESUME}). The watch looks
     * every {@link LoneTaskWatch#INTERVAL_NANOS} while a peer holds queued work, backs off up to
     * {@link #WATCH_SLEEP_CAP_NANOS} while peers are only awake, and gives the role up after
     * {@link #WATCH_IDLE_LOOKS} looks in a row find every peer parked (an idle pool costs nothing).
     */
    private int awaitWatching() {
        int outcome = switch (shared.watcher.await(index, watch, exitCheck, LoneTaskWatch.INTERVAL_NANOS,
                WATCH_SLEEP_CAP_NANOS, WATCH_IDLE_LOOKS)) {
            case RESUME -> RESUME;
            case EXIT -> EXIT;
            default -> woken();                // woken, or the protocol terminated (then EXIT)
        };
        if (outcome != EXIT) {
            takeSlotTaskIfUnwatched();
        }
        return outcome;
    }

    /**
     * Leaving the parked state, with the watcher role free and no core worker parked to take it
     * (so nobody watches): takes every peer's slot task, the first into this worker's own slot
     * and any others into its deque, where its loop finds them before the injector (the periodic
     * injector look is put off by as many turns), and lets a peer know if it took more than one.
     * A slot filled while this worker held the role woke nobody, and its spawner may be blocked
     * on it; woken for other work (an injector task, say), this worker would otherwise run that
     * first, and if that blocked too, the slot's task would wait for whichever worker next parks
     * (or, if every worker then waited unseen, for the StarvationWatch, which wakes or starts a
     * spare only after two of its looks, some 20-40 ms; with no spares, for good). Every slot's,
     * not only the first: a second slot's task was left where it was, with a wake-up for it that
     * woke nobody (this worker, woken by notifyWork, still counted as searching, and no core
     * worker was parked anyway), and the injector's task ran ahead of it
     * (SlotFillWakesNoWatchedPeerTest, "both silent slot tasks"). A searcher takes a slot before
     * a deque anyway ({@link #stealOnce}); this only puts them before the injector. Off the task
     * path: once per wake-up, one volatile read when a core worker is parked.
     */
    private void takeSlotTaskIfUnwatched() {
        if (shared.idle.parkedCoreCount() != 0 || shared.watcher.isHeld()) {
            return;                            // a parked core worker watches, or will take the role
        }
        Worker[] ws = shared.workers;
        int moved = 0;
        for (int i = 0, n = shared.slotsInUse(); i < n; i++) {
            Worker v = ws[i];
            if (v == null || v == this || v.lifo.isEmpty()) {
                continue;
            }
            Runnable t = v.lifo.steal();
            if (t == null) {
                continue;                      // its owner, or a thief, took it first
            }
            emitSteal(v, 1);                   // an event, not a counted steal: see "the LIFO slot"
            if (moved++ == 0) {
                Runnable displaced = lifo.put(t);
                assert displaced == null : "a worker parks only with its slot empty";
            } else if (!deque.offer(t)) {      // runs before the slot's: no order between peers' slots
                overflow(t);
            }
        }
        if (moved == 0) {
            return;
        }
        if (tick <= moved) {
            tick = moved + 1;                  // the loop's next turns must not look at the injector first
        }
        if (moved > 1) {
            // a peer may take some of them: a parked one is woken now if this worker is not
            // counted as searching, else when it stops searching (it holds local work then)
            shared.idle.notifyWork();
        }
    }

    /**
     * A spare's watch of its peers' queued work when it parks with nobody searching (it never
     * takes the watcher role, and a peer that is merely awake does not keep it watching): if a
     * peer that holds queued work finishes no task for a whole interval, the spare leaves the
     * parked stack and goes to take the work ({@link #RESUME}).
     *
     * @return {@link #UNWATCHED} when no peer holds queued work (the spare then sleeps out its
     *     keep-alive); else {@link #WOKEN}, {@link #RESUME} or {@link #EXIT}
     */
    private int watchQueuedWork() {
        return switch (watch.watch(shared.idle, exitCheck, LoneTaskWatch.INTERVAL_NANOS, 0L)) {
            case RESUME -> RESUME;
            case EXIT -> EXIT;
            case NOTHING_TO_WATCH -> UNWATCHED;
            case WOKEN -> woken();
        };
    }

    /**
     * A spare's wait: until woken, or for its keep-alive; then, if the pool still has more
     * workers than it needs, it leaves the parked stack ({@link #TIMED_OUT}) to retire.
     */
    private int sleepAsSpare() {
        IdleCoordinator idle = shared.idle;
        while (!idle.isNotified(index)) {
            if (mustExit()) {
                return EXIT;
            }
            idle.sleepAtMost(index, shared.spares.keepAliveNanos);
            if (!idle.isNotified(index) && shared.spares.hasExcess()) {
                beginRetiring();               // before it leaves the parked stack
                if (idle.cancelPark(index)) {
                    return TIMED_OUT;          // park() retires it or registers it again
                }
                endRetiring();                 // woken meanwhile: still on the stack
            }
        }
        return woken();
    }

    /**
     * The watcher's longest sleep while peers are awake with nothing queued: a task put in a
     * slot (which wakes nobody while the role is held) by a task that then blocks is seen within
     * this, and taken within about this plus an interval. Each look costs the watcher a timed
     * wake-up: 250 a second at most while the pool is partly busy, none while it is idle.
     */
    static final long WATCH_SLEEP_CAP_NANOS = TimeUnit.MILLISECONDS.toNanos(4);
    /**
     * Looks in a row that find every other worker parked before the watcher gives the role up and
     * sleeps until woken (three sleeps between them: 0.5 + 1 + 2 ms from a fresh watch, up to 4 ms
     * each once backed off, so 3.5 to about 16 ms after the pool went quiet); a pool that gets
     * work back within that spell finds its watcher still watching.
     */
    static final int WATCH_IDLE_LOOKS = 4;

    /** For {@link LoneTaskWatch}: whether this worker has finished a task since, by its count. */
    @Override
    public long progress() {
        return executed();
    }

    /**
     * For {@link LoneTaskWatch}: whether this worker runs (has a thread and is not registered as
     * parked; a racy read). An awake worker may fill its slot, which wakes nobody while the role
     * is held, and then block; so the watcher goes on looking while any peer is awake, and once
     * every peer has stayed parked for a few looks it gives the role up ({@link WatcherRole}).
     */
    @Override
    public boolean isBusy() {
        return alive && !shared.idle.isParked(index);
    }

    /** For {@link LoneTaskWatch}: whether this worker holds a task a peer may take. */
    @Override
    public boolean holdsWork() {
        return hasLocalWork();
    }

    /**
     * The deque is full: move its older half to the injector with one CAS on the deque and one
     * claim on the injector, then push. Nothing is dropped.
     *
     * <p>Where the heap has no room for the injector's next segment, the move stops there
     * ({@code Injector.tryOfferAll}) and the tasks it did not append go back to the deque's
     * bottom, which has room for them: they were just taken from it. Thrown out of here
     * instead, the error lost them, and the push that overflowed (a fork whose own task was on
     * the fork stack already, handing back an older one) threw. If the deque is full again
     * and the injector cannot take {@code task} either, it runs here, as a caller-runs policy
     * would: it is a task already accepted (a fork handed back, a stolen one), which the error
     * would lose. So it goes too where the heap has no room for the buffer of the move
     * ({@link #overflowBuffer(Object[], int)}): the move is made with the smaller buffer there was,
     * or not at all, and {@code task} goes to the injector, or runs here.
     */
    void overflow(Runnable task) {
        int half = Math.max(1, deque.size() / 2);
        Object[] buf = overflowBuffer;
        if (buf == null || buf.length < half) {
            buf = overflowBuffer(buf, half);
        }
        int offered = 0;
        if (buf != null) {
            int moved = deque.takeOldest(buf, Math.min(half, buf.length));
            offered = shared.injector.tryOfferAll(buf, moved);
            for (int k = offered; k < moved; k++) {
                deque.offer((Runnable) buf[k]);   // never full: they left it just now
            }
            java.util.Arrays.fill(buf, 0, moved, null);
        }
        OVERFLOWED.setOpaque(this, overflowed + offered);
        boolean queued = deque.offer(task);
        if (!queued) {
            try {
                shared.injector.offer(task);
                queued = true;
            } catch (OutOfMemoryError e) {
                // neither has room: run it below
            }
        }
        shared.idle.notifyWork();
        if (!queued) {
            runTask(task);
        }
    }

    /**
     * A buffer of {@code half} slots for {@link #overflow}, kept for the next; where the heap has
     * no room for it (an {@link OutOfMemoryError}), {@code old}, the smaller one there was, or
     * {@code null}. Thrown out of overflow instead, the error lost the task that overflowed,
     * which every caller but a runnable's push had already taken from somewhere (a fork handed
     * back by the fork stack, whose own fork then threw though its task was queued; a task taken
     * from a peer's slot or deque).
     */
    private Object[] overflowBuffer(Object[] old, int half) {
        try {
            Runnable hook = beforeOverflowBuffer;
            if (hook != null) {
                hook.run();
            }
            return overflowBuffer = new Object[half];
        } catch (OutOfMemoryError e) {
            return old;
        }
    }

    /**
     * Run, if set, just before {@link #overflow} allocates its buffer: a seam for tests, which
     * throw from it what a full heap throws there. Read only when the buffer is made or grown.
     */
    static volatile Runnable beforeOverflowBuffer;

    // ------------------------------------------------------------------ joining

    /**
     * Helps until {@code task} completes, parking briefly only when there is nothing it may run.
     *
     * <ol>
     *   <li>If the task is the newest on this worker's fork stack (the fork/join fast path) or
     *       at the bottom of its deque, pop and run it.</li>
     *   <li>If it has not started and is queued on this worker (below newer tasks, when tasks
     *       are joined in another order than forked), run it here: its state CAS makes the
     *       queued entry a no-op later. A task queued anywhere else (a peer's deque, the
     *       injector, another pool) is left to whoever takes it there, except where a thief of
     *       this pool would take it next, in step 3. Run here, a task from
     *       elsewhere could hold this worker while it waits, outside a blocking section, for
     *       work that only this worker's pool would run, and the pool would not know to
     *       compensate (CrossPoolJoinTest). A pool built without spare workers runs it here
     *       wherever it is, since its waiting joiners are never compensated: the task might
     *       sit in its injector with no other thread to take it (JoinAndBlockingTest). Not a
     *       task a pinned, sharing or priority pool accepted, though
     *       ({@link ForkTask#isPinned}): only that pool's workers (a pinned pool's: the one it
     *       went to) may run it, and they will (ComputeTaskHeldByItsPoolJoinTest).</li>
     *   <li>Otherwise it runs on another worker, or waits on one. Run only its
     *       <em>descendants</em>: from the bottom of this deque; else from the worker running it
     *       (the thief), which keeps the awaited task's subtasks at the top of its deque; else,
     *       if that worker is itself waiting on a join, from the worker running what it awaits,
     *       and so on down the chain (as ForkJoinPool's helping follows the stealer); else from
     *       the top of any peer's deque, or its fork stack, where the awaited task itself is
     *       taken too. Left there, a task that a peer spawned and then blocked or ran long
     *       without a blocking section (its lone task, which no idle worker is woken for) was
     *       waited for until that peer got back to it, while the pool counted the peer as
     *       running and started no spare for the joiner.</li>
     *   <li>With nothing it may run, park briefly and look again; once the wait exceeds
     *       {@link #COMPENSATE_AFTER_NANOS}, count as blocked, so a spare worker runs the rest
     *       of the pool's work meanwhile (as in a {@link dev.spindle.Spindle#blocking} section).</li>
     * </ol>
     *
     * <p>Why only descendants: a frame stacked on top of a join must not wait, directly or not,
     * for a frame beneath it, or neither can finish. Tasks that join each other's results
     * (not only their own subtasks) can set up exactly that if a joiner runs an arbitrary task.
     * A descendant of the awaited task cannot depend on the joining frame: the awaited task does
     * not, and the joiner's frame completes only after the awaited task does. Nor can the
     * awaited task itself add a wait: whatever it waits for, the joining frame already waits
     * for through it, wherever it runs.
     */
    void helpJoin(ForkTask<?> task) {
        if (forks.peekNewest() == task && task.parent == current) {
            // The fork/join fast path: the newest fork of the frame that joins it. This is
            // runTask's first case written out, one call shallower (see "the JIT's inlining
            // depth"); tryRun skips the task if a thief claimed it from the fork stack.
            forks.pop();
            if (task.tryRun()) {               // with the frame's interrupt status: see runTopLevel
                countExecuted();
            }
            if (task.isFinal()) {
                return;
            }
        }
        helpJoinSlowly(task, false, false, 0L);
    }

    /** How {@link #helpJoinSlowly} ended. */
    static final int JOINED = 0;
    static final int JOIN_INTERRUPTED = 1;
    static final int JOIN_TIMED_OUT = 2;

    /**
     * {@link #helpJoin} for {@link java.util.concurrent.Future#get}: helps in the same way, but
     * an interrupt ends the wait (the interrupt status cleared, as {@code get} throws
     * {@link InterruptedException}), and with {@code timed} so does the end of {@code nanos}.
     * Not on the join's path (see "the JIT's inlining depth").
     *
     * @return whether the task completed ({@code false}: timed out)
     */
    boolean helpGet(ForkTask<?> task, boolean timed, long nanos) throws InterruptedException {
        // a negative timeout counts as 0, as in the JDK's timed waits: now + Long.MIN_VALUE lies
        // 2^63 ns away, and the difference the wait tests would overflow into ~292 years ahead
        long deadline = timed ? System.nanoTime() + Math.max(0L, nanos) : 0L;
        int how = helpJoinSlowly(task, true, timed, deadline);
        if (how == JOIN_INTERRUPTED) {
            throw new InterruptedException();
        }
        if (how == JOIN_TIMED_OUT) {
            while (!task.isFinal() && task.waitIsOver()) {
                Thread.onSpinWait();           // COMPLETING: the outcome is a few instructions away
            }
            return task.isFinal();
        }
        return true;
    }

    /**
     * The rest of {@link #helpJoin}: the task was not the newest fork of the joining frame, or
     * a thief started it before this worker could. With {@code interruptible} ({@link #helpGet})
     * a pending interrupt ends the wait, cleared, instead of being held until the task completes;
     * with {@code timed}, so does reaching {@code deadline} ({@link System#nanoTime}).
     *
     * @return {@link #JOINED}, {@link #JOIN_INTERRUPTED} or {@link #JOIN_TIMED_OUT}
     */
    private int helpJoinSlowly(ForkTask<?> task, boolean interruptible, boolean timed, long deadline) {
        if (forks.peekNewest() == task) {
            forks.pop();                       // newest, but not a child of the recorded frame
            runTask(task);
        } else if (deque.peekBottom() == task) {
            Runnable t = deque.pop();
            if (t != null) {
                runTask(t);                    // t == task: only thieves could have moved it
            }
        }
        if (task.isNew() && (holdsLocally(task)
                || (!shared.spares.mayCompensate() && !pool.isStopping() && !task.isPinned()))) {
            runTask(task);                     // its queued entry is skipped later (the CAS); not once
        }                                      // shutdownNow may have drained it and handed it back;
                                               // nor one a pinned, priority or sharing pool holds:
                                               // only that pool's workers run it
        ForkTask.WaitNode node = null;
        long backoff = 1_000L;
        long waited = 0L;
        boolean compensating = false;
        boolean interrupted = false;
        ForkTask<?> outerJoin = joining;       // a join inside a task run while helping
        JOINING.setRelease(this, task);
        try {
            while (!task.isFinal()) {
                if (interruptible && Thread.interrupted()) {
                    return JOIN_INTERRUPTED;
                }
                long left = timed ? deadline - System.nanoTime() : Long.MAX_VALUE;
                if (left <= 0L) {
                    return JOIN_TIMED_OUT;
                }
                Runnable t = takeDescendant(task);
                if (t != null) {
                    interrupted = handBackInterrupt(interrupted);
                    runTask(t);
                    backoff = 1_000L;
                    continue;
                }
                if (!interruptible && task.isHandedBack()) {
                    // shutdownNow returned it (this pool's, or another's that stopped): a join
                    // ends as it does from outside (see ForkTask.awaitBlocking); a get goes on
                    // waiting, interruptibly. Not cancelled: the list's holder may still run it.
                    throw new java.util.concurrent.CancellationException(
                            "pool stopped before the awaited task completed; shutdownNow() returned it not started");
                }
                if (pool.isStopping()) {
                    if (interruptible) {
                        // a get ends as shutdownNow's interrupt would end it (see ForkTask.get)
                        throw new java.util.concurrent.CancellationException(
                                "pool stopped before the awaited task completed");
                    }
                    // A join reports the task's real outcome: throwing here told the joiner
                    // "cancelled" about a task that then completed with a value
                    // (JoinWhileStoppingRegressionTest). No spare starts and no worker steals any
                    // more, so a task of this pool that has not started (on a peer's fork stack,
                    // say, whose owner may be waiting on this frame) is run here, as a pool
                    // without spares does. Not a task of another pool, which that pool still
                    // runs: run here it saw this pool's shutdownNow interrupt and failed
                    // (JoinWhileStoppingRegressionTest). One that runs elsewhere, or is queued
                    // elsewhere, is waited for while this worker holds no unstarted task: what it
                    // waits for may be such a task, which after shutdownNow only this worker
                    // runs, once this frame returns. Then the join cancels it instead, so that
                    // "cancelled" is its outcome for every observer.
                    if (task.isNew() && onAForkStackOfThisPool(task)) {
                        interrupted = handBackInterrupt(interrupted);
                        runTask(task);         // its queued entry is skipped later (the CAS)
                        continue;
                    }
                    if (hasLocalWork()) {
                        if (task.cancel(false)) {
                            throw new java.util.concurrent.CancellationException(
                                    "pool stopped before the awaited task completed");
                        }
                        continue;              // completed meanwhile: its outcome is reported
                    }
                }
                if (!compensating && waited >= COMPENSATE_AFTER_NANOS) {
                    // Nothing this frame may run, and the wait is not short: count this worker
                    // as blocked so a spare (started, or woken) runs the other work meanwhile,
                    // on its own stack. Marked once entered: an entry that throws has undone
                    // itself, and the finally must not leave the section a second time.
                    beginBlocking();
                    compensating = true;
                }
                if (node == null) {
                    node = task.addWaiter();
                }
                // A pending interrupt (the frame's, or shutdownNow's) would make every park
                // return at once; hold it while waiting, and restore it after (a get() has
                // returned on it above) or before a task runs here (handBackInterrupt).
                if (Thread.interrupted()) {
                    if (interruptible) {
                        return JOIN_INTERRUPTED;
                    }
                    interrupted = true;
                }
                task.parkBriefly(Math.min(backoff, left));
                waited += backoff;
                backoff = Math.min(backoff << 1, TimeUnit.MILLISECONDS.toNanos(1));
            }
            return JOINED;
        } finally {
            JOINING.setRelease(this, outerJoin);
            if (node != null) {
                if (task.isFinal()) {
                    node.thread = null;
                } else {
                    task.removeWaiter(node);   // a get gave up (or the pool stopped): see removeWaiter
                }
            }
            if (compensating) {
                endBlocking();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Puts an interrupt that {@link #helpJoinSlowly} held while it parked back on the thread
     * before it runs a task: the task runs with the frame's interrupt status, as every nested
     * run does (see {@link #runTopLevel}). Held on, it hid {@code shutdownNow}'s interrupt from
     * a task found after the interrupt came, which then ran to its end and kept the stopped
     * pool from terminating (JoinInterruptRegressionTest). Not after each park: an interrupt
     * also unparks, so every other park would return at once.
     *
     * @return {@code false}, the held flag's new value
     */
    private static boolean handBackInterrupt(boolean held) {
        if (held) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Owner only: whether {@code task} is queued on this worker, in the fork stack or the deque.
     * A look through both (the deque's length at most), once per join that misses the fast
     * path, as FJP's join looks through its worker's queue.
     */
    private boolean holdsLocally(ForkTask<?> task) {
        return forks.holds(task) || deque.holds(task);
    }

    /**
     * Whether {@code task} is queued on this worker or on a peer's fork stack: after
     * {@code shutdownNow}'s drain, the only places an unstarted task of this pool is left in
     * (the drain hands back what it takes from the deques and the injector). A racy look at the
     * peers' stacks; a stack whose owner waits does not change, and is read as it is.
     */
    private boolean onAForkStackOfThisPool(ForkTask<?> task) {
        if (holdsLocally(task)) {
            return true;
        }
        Worker[] ws = shared.workers;
        for (int i = 0, n = shared.slotsInUse(); i < n; i++) {
            Worker v = ws[i];
            if (v != null && v != this && v.forks.mayHold(task)) {
                return true;
            }
        }
        return false;
    }

    /** Takes a queued descendant of {@code target} from this deque's bottom or a peer's top. */
    private Runnable takeDescendant(ForkTask<?> target) {
        for (ForkTask<?> own; (own = forks.peekNewest()) != null; ) {
            if (!own.isNew()) {
                forks.pop();                   // a finished entry (run by a thief): discard
                continue;
            }
            if (ForkTask.descendsFrom(own, target)) {
                forks.pop();
                return own;                    // claimed by its run's CAS, or skipped there
            }
            break;
        }
        for (Runnable b; (b = deque.peekBottom()) != null; ) {
            if (b instanceof ForkTask<?> f && !f.isNew()) {
                deque.pop();                   // a finished entry (run inline earlier): discard
                continue;
            }
            if (ForkTask.descendsFrom(b, target)) {
                return deque.pop();            // b, unless a thief took it (then null)
            }
            break;
        }
        Runnable s = takeFromRunners(target);
        if (s != null) {
            return s;
        }
        Worker[] ws = shared.workers;
        int n = shared.slotsInUse();
        int start = ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < n; k++) {
            Worker v = ws[(start + k) % n];
            if (v != null && v != this && (s = takeDescendantFrom(v, target)) != null) {
                return s;
            }
        }
        return null;
    }

    /**
     * Follows the thief: takes a queued descendant of {@code target} from the worker running it,
     * which pushed target's subtasks onto its own deque and fork stack. If it has none there to
     * spare and is itself waiting on a join, the task it awaits usually descends from
     * {@code target} (target's frame, or a frame above it, is the one waiting) and its runner is
     * looked at next, and so on for {@link #MAX_RUNNER_HOPS}. On many workers this finds the
     * subtasks at once where a scan of every peer's deque pays a cache miss per peer.
     *
     * <p>Every link is a racy hint: the runner may finish, and its {@code joining} change, as it
     * is read, and a worker running target inline while it helps an outer join of its own still
     * shows that outer join, which leads away from target's subtasks. A wrong link costs a look at
     * a deque and nothing more: what is taken is checked to descend from {@code target} as in the
     * scan, a task taken by mistake is re-queued here, and the scan follows.
     */
    private Runnable takeFromRunners(ForkTask<?> target) {
        ForkTask<?> awaited = target;
        for (int hop = 0; hop < MAX_RUNNER_HOPS && awaited != null; hop++) {
            Worker runner = runnerOf(awaited);
            if (runner == null || runner == this) {
                return null;
            }
            Runnable s = takeDescendantFrom(runner, target);
            if (s != null) {
                RUNNER_HELPS.setOpaque(this, runnerHelps + 1);
                return s;
            }
            awaited = (ForkTask<?>) JOINING.getOpaque(runner);
        }
        return null;
    }

    /** The worker of this pool running {@code task}, or {@code null} (not running, or elsewhere). */
    private Worker runnerOf(ForkTask<?> task) {
        return task.runnerHint() instanceof PoolCore.WorkerThread t && t.worker instanceof Worker w && w.pool == pool
                ? w : null;
    }

    /**
     * Takes a queued descendant of {@code target}, or {@code target} itself, from the top of peer
     * {@code v}'s deque, or the oldest entry of its fork stack when its deque is empty;
     * {@code null} if neither is one (see {@link #helpJoin}, step 3).
     * Finished entries on top of the deque (tasks run inline after they were queued) are taken
     * and dropped on the way.
     */
    private Runnable takeDescendantFrom(Worker v, ForkTask<?> target) {
        for (;;) {
            Runnable top = v.deque.peekTop();
            if (top == null) {
                ForkTask<?> f = v.peekForkStack();  // unclaimed; claimed by its run's CAS
                return f != null && (f == target || ForkTask.descendsFrom(f, target)) ? f : null;
            }
            if (!(top instanceof ForkTask<?> f) || (f.isNew() && f != target && !ForkTask.descendsFrom(top, target))) {
                return null;
            }
            Runnable s = v.deque.stealOrNull();
            if (s == null) {
                return null;
            }
            STEALS.setOpaque(this, steals + 1);
            if (s instanceof ForkTask<?> sf && !sf.isNew()) {
                continue;                      // a finished entry: drop it, look again
            }
            if (s == target || ForkTask.descendsFrom(s, target)) {
                return s;
            }
            // lost a race and took an unrelated task: keep it queued here, never drop it
            if (!deque.offer(s)) {
                overflow(s);
            }
            return null;
        }
    }

    // ------------------------------------------------------------------ blocking sections

    @Override
    public void beginBlocking() {
        if (blockingDepth++ == 0) {
            try {
                shared.spares.beginBlocking();
                // This worker stops taking tasks for a while. If work is waiting, someone must
                // look for it: the spare just started does, but a spare already parked (which
                // made starting a new one unnecessary) has to be woken.
                if (hasLocalWork() || shared.hasVisibleWork()) {
                    shared.idle.notifyWork();
                }
            } catch (Throwable e) {
                // an OutOfMemoryError making the spare: the section is not entered, and the
                // callers that begin it outside their try (Spindle.blocking, the futures' get)
                // never call endBlocking. Left counted, this worker
                // was inside a section for good: reported blocked, and left out of the
                // starvation watch's test, so a pool whose only worker then waited unseen was
                // never relieved (BlockingSectionWhoseSpareCannotBeMadeTest)
                endBlocking();
                throw e;
            }
        }
    }

    @Override
    public void endBlocking() {
        if (--blockingDepth == 0) {
            shared.spares.endBlocking();
        }
    }

    // ------------------------------------------------------------------ stats

    long steals() {
        return (long) STEALS.getOpaque(this);
    }

    /** The task this worker's innermost waiting join awaits, or {@code null} (racy; for tests). */
    ForkTask<?> joiningHint() {
        return (ForkTask<?>) JOINING.getOpaque(this);
    }

    /** Descendants this worker took, while joining, from the awaited task's runner chain. */
    long runnerHelps() {
        return (long) RUNNER_HELPS.getOpaque(this);
    }

    long overflowed() {
        return (long) OVERFLOWED.getOpaque(this);
    }

    /** Counts a task {@code shutdownNow} took from this deque's top; any thread. */
    void countDrained() {
        DRAINED.getAndAdd(this, 1L);
    }

    /** Tasks {@code shutdownNow} took from this deque's top (see {@link #drained}). */
    long drained() {
        return (long) DRAINED.getVolatile(this);
    }
}
