/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.SchedulerStats;
import dev.spindle.internal.IdleControl;
import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.internal.Parker;
import dev.spindle.internal.WatcherRole;
import dev.spindle.queue.Injector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * What {@link WorkSharingPool}, {@link PriorityPool} and {@link PinnedPool} share beyond the
 * lifecycle of {@link PoolCore}: their workers, the worker loop, parking and statistics. A
 * subclass supplies its queues through a few hooks ({@link #poll}, {@link #hasWorkFor},
 * {@link #hasAnyTask}, {@link #drainQueued}, {@link #sharedQueued}, {@link #queuedAt}) and its own
 * {@code execute}, which must use {@link #beginExternalSubmit}/{@link #endExternalSubmit} around
 * a submission from outside the pool and {@link #rejectIfStopped} for one from a worker.
 *
 * <h2>The worker loop</h2>
 *
 * <p>Take a task ({@link #poll}) and run it; with none, park following {@link IdleCoordinator}.
 * A worker woken by {@link IdleCoordinator#notifyWork()} counts as searching until it takes a task; if it was the
 * last searcher and work is still queued, it wakes the next worker. Shutdown, late tasks after
 * {@code shutdownNow}, interrupts and failures follow the rules of {@link PoolCore}.
 *
 * <p>A pool whose workers keep work that wakes nobody (the work-sharing pool's slots) asks for a
 * watcher: then one parked worker at a time watches the others ({@link WatcherRole},
 * {@link LoneTaskWatch}) and, when one's task runs on for a whole interval with such work queued
 * behind it, has that work moved where any worker takes it ({@link #handOffQueued}).
 */
abstract class AbstractPool extends PoolCore {

    private static final AtomicInteger POOL_SEQ = new AtomicInteger();

    final PoolWorker[] workers;
    final IdleCoordinator idle;
    /** Whether any worker may run any queued task (then woken workers search; see {@link IdleCoordinator}). */
    private final boolean sharedQueues;
    /** The parked worker that watches the others, one at a time; {@code null} if the pool has none. */
    private final WatcherRole watcher;
    /** The watch's and the role's stop test, made once: a lambda at each park would be an object. */
    private final BooleanSupplier stopping = () -> runState >= STOP;

    /**
     * @param sharedQueues whether every worker may take every queued task
     * @param ownQueues whether each worker gets a queue of its own ({@link PoolWorker#queue})
     * @param watched whether a parked worker watches the others for work stranded behind a long
     *     task (see the class overview)
     */
    AbstractPool(PoolBuilder<?> b, String kind, boolean sharedQueues, boolean ownQueues, boolean watched) {
        super(b, kind, POOL_SEQ);
        this.sharedQueues = sharedQueues;
        this.workers = new PoolWorker[b.workers];
        LoneTaskWatch.Peers peers = LoneTaskWatch.Peers.of(workers);
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new PoolWorker(this, i, ownQueues ? new Injector<>() : null,
                    watched ? new LoneTaskWatch(i, peers, workers.length) : null);
        }
        this.idle = new IdleCoordinator(workers.length, Parker.ofThreads(this, name, i -> workers[i].thread),
                this::dropStrayInterrupt);
        this.watcher = watched ? new WatcherRole(idle, stopping, true) : null;
    }

    /**
     * Creates and starts the worker threads. Subclasses call it last in their constructor, once
     * their queues exist. A failing factory leaves no thread behind (see {@link PoolCore}).
     */
    final void startWorkers() {
        startWorkers(workers, workers.length);
    }

    // ------------------------------------------------------------------ subclass hooks

    /** The next task for {@code w}, or {@code null}; called only on {@code w}'s thread. */
    abstract Runnable poll(PoolWorker w);

    /**
     * Whether {@code w} could take a task now; its re-check before parking. Must read every
     * queue {@link #poll} takes from with volatile reads (see {@link IdleCoordinator}).
     */
    abstract boolean hasWorkFor(PoolWorker w);

    /** An estimate of the tasks waiting in the queues every worker takes from. */
    abstract long sharedQueued();

    /** An estimate of the tasks waiting in {@code w}'s own queue; none by default. */
    long queuedAt(PoolWorker w) {
        return 0;
    }

    /**
     * {@code w}'s task blocks, or has run on for a whole watch interval: moves the work queued
     * behind it that only {@code w} would take where any worker takes it. Called on {@code w}'s
     * thread as a task there enters a blocking section, and on a watcher's thread (only in pools
     * built with a watcher), so it must be safe from any thread. Nothing by default.
     */
    void handOffQueued(PoolWorker w) {
    }

    @Override
    final IdleControl idleControl() {
        return idle;
    }

    @Override
    final int liveWorkers() {
        return workers.length;
    }

    @Override
    final BaseWorker[] workerSlots() {
        return workers;
    }

    /** The worker the calling thread runs, if it is one of this pool's; else {@code null}. */
    final PoolWorker currentWorker() {
        return (PoolWorker) currentWorkerOfThisPool();
    }

    /**
     * A task of this package that {@code submit} wraps runs on a worker of this pool only, as one
     * given to {@code execute}: {@link ForkTask#PINNED}, so that no worker of a
     * {@link WorkStealingPool} that joins it runs it inline on its own thread (ahead of this
     * pool's queue, and out of reach of its shutdown and termination); a {@link PinnedPool}'s
     * runs on the one worker it went to.
     */
    @Override
    ForkTask<?> submittedParent() {
        return ForkTask.PINNED;
    }

    /**
     * {@code true}: {@code execute} throws an {@link Error} only from the offer (or from making a
     * priority level), before the task is in any queue, and leaves a task of this package it
     * prepared as it was; see each pool's {@code offer}.
     */
    @Override
    boolean executeErrorsLeaveUnqueued() {
        return true;
    }

    // ------------------------------------------------------------------ the worker loop

    /** Run by a worker as it finds no task and goes idle, before it registers to park, if set: a seam for tests. */
    static volatile Runnable beforeIdle;

    /** A round of the worker loop (see {@link BaseWorker#work}); {@code false} to exit. */
    final boolean loop(PoolWorker w) {
        for (int tasks = 0; tasks < BaseWorker.TASKS_PER_ROUND; ) {
            if (runState >= STOP) {
                return false;
            }
            Runnable task = poll(w);
            if (task != null) {
                if (w.searching) {
                    w.searching = false;
                    if (idle.stopSearching() && hasWorkFor(w)) {
                        idle.notifyWork();     // more work than this worker: wake the next one
                    }
                }
                runTask(w, task);
                tasks++;
                continue;
            }
            return idle(w);                    // a park ends the round (see PoolCore.runWorker)
        }
        return true;
    }

    /**
     * Parks {@code w} (see {@link IdleCoordinator}).
     *
     * @return {@code false} if the worker should leave its loop (the pool terminated or stops)
     */
    private boolean idle(PoolWorker w) {
        Runnable hook = beforeIdle;
        if (hook != null) {
            hook.run();
        }
        boolean recheck = idle.prepareToPark(w.index, w.searching);
        w.parkRegistered = true;
        w.searching = false;
        if (recheck && hasWorkFor(w)) {
            w.leaveRegisteredPark(idle, watcher, null, sharedQueues);
            return true;
        }
        if (runState >= SHUTDOWN) {
            tryTerminate();
        }
        w.countPark();
        if (watcher == null) {
            boolean woken = idle.await(w.index);
            w.parkRegistered = false;
            if (!woken) {
                return false;
            }
        } else {
            LoneTaskWatch.Outcome outcome = watcher.await(w.index, w.watch, stopping, WATCH_INTERVAL_NANOS,
                    WATCH_SLEEP_CAP_NANOS, WATCH_IDLE_LOOKS);
            w.parkRegistered = false;
            switch (outcome) {
                case RESUME:
                    return true;               // neither parked nor searching: go and look
                case EXIT:
                    return false;
                default:
                    if (idle.isTerminated()) {
                        return false;
                    }
            }
        }
        w.countUnpark();
        w.searching = sharedQueues;            // notifyWork counts whom it wakes as searching
        return true;
    }

    /**
     * After an {@link Error} thrown by {@code w}'s loop itself, outside any task (see
     * {@link PoolCore#runWorker}, where the worker goes on): undoes a park it had registered for,
     * as a park cancelled after its re-check is. Left registered, the worker was counted as
     * parked while it ran, and a wake-up meant for it was lost.
     */
    final void undoPark(PoolWorker w) {
        if (w.parkRegistered) {
            w.leaveRegisteredPark(idle, watcher, null, sharedQueues);
        }
    }

    /**
     * The watcher's sleep between two looks while a worker holds work that only it would take: a
     * task that blocks or runs long with such work behind it has that work moved within two of
     * these once the watcher has seen it. The async runtime's workers watch with the same interval
     * (measured there: a fixed 500 µs cost the watcher 4.5 % of a core beside one busy peer,
     * 10 ms about 0.2 %).
     */
    static final long WATCH_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * The watcher's longest sleep while workers are awake with nothing queued: work queued behind a
     * task that then blocks is seen within this, so it is moved within about 60 ms.
     */
    static final long WATCH_SLEEP_CAP_NANOS = TimeUnit.MILLISECONDS.toNanos(40);
    /**
     * Looks in a row that find every other worker parked before the watcher gives the role up and
     * sleeps until woken (10 + 20 + 40 ms: about 70 ms after the pool went quiet). An idle pool
     * then costs nothing; a pool that gets work back within that spell finds its watcher still
     * watching, and the first worker to wake nudges nobody.
     */
    static final int WATCH_IDLE_LOOKS = 4;

    final void runTask(PoolWorker w, Runnable task) {
        dropStrayInterrupt();
        boolean ran = true;
        try {
            if (task instanceof Invoked c) {
                // a queued copy of invokeAll's task: counted where the task runs, once, not
                // here when the calling worker (or a peer) ran it already (see invokeAllHere)
                ran = c.runIfUnclaimed();
            } else if (task instanceof ForkTask<?> f) {
                // only a NEW one, as a work-stealing pool's workers run them: one queued here and
                // in another pool, whose shutdownNow handed it back meanwhile, runs only if that
                // list's holder runs it (see ForkTask); its run() would reclaim it, and it ran
                // here after its joins had ended as cancelled
                ran = f.tryRun();
            } else if (task instanceof CompensatingExecutorService.CompensatingFuture<?> f) {
                // a future of submit: one cancelled before it started runs nothing here, and is
                // not counted, as a work-stealing pool does not count a cancelled task it skips
                f.run();
                ran = f.ended;
            } else {
                task.run();
            }
        } catch (Throwable ex) {
            reportFailure(w.thread, ex);
        }
        if (ran) {
            w.countExecuted();
        }
    }

    // ------------------------------------------------------------------ invokeAll / invokeAny

    /**
     * As {@link java.util.concurrent.AbstractExecutorService#invokeAll(Collection)}. Called from a
     * worker of this pool, the calling worker runs every task that no other worker has started,
     * in order, and waits only for those running elsewhere: a pool of these has no spare workers,
     * so a caller that only waited could hold the one thread that would run them (a one-worker
     * pool never returned). Where any worker may take any task, the tasks are queued first, so
     * idle workers run them alongside the caller; a {@link PinnedPool}'s would be pinned behind
     * the caller, so they run on it alone.
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return currentWorker() == null ? super.invokeAll(tasks) : invokeAllHere(tasks, false, 0L);
    }

    /**
     * As {@link #invokeAll(Collection)}, with a timeout; called from a worker of this pool, the
     * tasks not done by then are cancelled: one running on a peer is interrupted, as the JDK cancels
     * them; one the calling worker runs itself runs to its end.
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return currentWorker() == null ? super.invokeAll(tasks, timeout, unit)
                : invokeAllHere(tasks, true, unit.toNanos(timeout));
    }

    /**
     * As {@link java.util.concurrent.AbstractExecutorService#invokeAny(Collection)}; called from a
     * worker of this pool, it runs the tasks on that worker, in order, until one succeeds (see
     * {@link #invokeAll(Collection)} for why).
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        if (currentWorker() == null) {
            return super.invokeAny(tasks);
        }
        try {
            return invokeAnyHere(tasks, false, 0L);
        } catch (TimeoutException impossible) {
            throw new AssertionError("an untimed invokeAny timed out", impossible);
        }
    }

    /**
     * As {@link #invokeAny(Collection)}, with a timeout, checked before each task but the first
     * starts: the first runs even with no time left, as the JDK's starts its first task.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        return currentWorker() == null ? super.invokeAny(tasks, timeout, unit)
                : invokeAnyHere(tasks, true, unit.toNanos(timeout));
    }

    /**
     * The futures of {@code tasks}, checked before any runs. The tasks run on the calling worker
     * rather than only through {@code execute}, so this is where a stopped pool refuses them, as
     * {@code execute} from a worker does after {@link #shutdownNow()}: running them would start
     * tasks in a pool that promised to start no more.
     */
    private <T> List<RunnableFuture<T>> futures(Collection<? extends Callable<T>> tasks, boolean any) {
        checkTasks(tasks, any);
        rejectIfStopped();
        List<RunnableFuture<T>> out = new ArrayList<>(tasks.size());
        for (Callable<T> c : tasks) {
            out.add(newTaskFor(c));
        }
        if (any && out.isEmpty()) {
            // not empty when checked, yet it iterated nothing (emptied meanwhile by another
            // thread): invokeAnyHere would have no failure to report and threw null, an NPE
            throw new IllegalArgumentException("tasks must not be empty: invokeAny needs at least one task"
                    + " (the collection iterated none)");
        }
        return out;
    }

    /** invokeAll on a worker of this pool: see {@link #invokeAll(Collection)}; an interrupt cancels the rest. */
    private <T> List<Future<T>> invokeAllHere(Collection<? extends Callable<T>> tasks, boolean timed,
                                              long nanos) throws InterruptedException {
        PoolWorker w = currentWorker();         // the caller: it runs the tasks nobody has started
        // a negative timeout counts as 0, as in the JDK: now + Long.MIN_VALUE lies 2^63 ns away,
        // and the deadline's difference tested below overflowed into ~292 years ahead
        long deadline = System.nanoTime() + Math.max(0L, nanos);
        List<RunnableFuture<T>> futures = futures(tasks, false);
        List<Invoked> copies = new ArrayList<>(futures.size());
        for (RunnableFuture<T> f : futures) {
            // what this pool's newTaskFor makes (CompensatingExecutorService's): it says whether its task ran
            copies.add(new Invoked((CompensatingExecutorService.CompensatingFuture<T>) f));
        }
        boolean done = false;
        try {
            if (sharedQueues) {
                for (Invoked c : copies) {
                    execute(c);                // a peer that claims one first runs it; the caller skips it then
                }
            }
            for (Invoked c : copies) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (timed && deadline - System.nanoTime() <= 0L) {
                    return new ArrayList<>(futures);   // the rest are cancelled below
                }
                if (isStopping()) {
                    // shutdownNow returned the unclaimed copies as never started: starting them
                    // here would break that (and a task that swallowed the interrupt got here)
                    return new ArrayList<>(futures);
                }
                if (c.runIfUnclaimed()) {
                    w.countExecuted();         // a task this worker ran, outside its loop: stats
                }
            }
            for (RunnableFuture<T> f : futures) {
                if (f.isDone()) {
                    continue;
                }
                try {                          // running on a peer: its get() waits as a blocking section
                    if (timed) {
                        f.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    } else {
                        f.get();
                    }
                } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                    // the future holds it
                } catch (TimeoutException e) {
                    return new ArrayList<>(futures);
                }
            }
            done = true;
            return new ArrayList<>(futures);
        } finally {
            if (!done) {
                // as the JDK's invokeAll: a task still running on a peer is interrupted
                for (RunnableFuture<T> f : futures) {
                    f.cancel(true);
                }
            }
        }
    }

    /**
     * A task of {@link #invokeAllHere} as queued for any worker: the caller also runs it unless a
     * peer claimed it first, so the queue keeps a copy after it ran. Whoever claims it first runs
     * it; {@link #shutdownNow()} claims those nobody has, returning their futures as never
     * started, and leaves the others out. Not final only for a test's seam ({@link #claimed}).
     */
    static class Invoked implements Runnable {
        final CompensatingExecutorService.CompensatingFuture<?> future;
        private final AtomicBoolean claimed = new AtomicBoolean();

        Invoked(CompensatingExecutorService.CompensatingFuture<?> future) {
            this.future = future;
        }

        boolean claim() {
            return !claimed.get() && claimed.compareAndSet(false, true);
        }

        @Override
        public void run() {
            runIfUnclaimed();
        }

        /**
         * {@return whether the task ran here, to its end} It runs unless someone claimed it
         * first, or {@code invokeAll} cancelled it (its timeout passed, or it was interrupted)
         * before it started: a cancelled future's {@code run} does nothing, and no task ran.
         * Asked of the future after its run ({@link CompensatingExecutorService.CompensatingFuture#ended}),
         * not looked at before: a cancel landing between that look and the run had the copy
         * counted as run by a peer, though nothing ran.
         */
        boolean runIfUnclaimed() {
            if (!claim()) {
                return false;
            }
            claimed();
            future.run();
            return future.ended;
        }

        /**
         * Called once this copy is claimed, just before its future runs: nothing. A seam for
         * tests, which cancel the future here, as {@code invokeAll} does when its timeout passes
         * or it is interrupted while a peer is about to run the task.
         */
        void claimed() {
        }
    }

    /**
     * As {@link PoolCore#shutdownNow()}; the queued copies of {@code invokeAll}'s tasks that the
     * calling worker or a peer already started are left out: they are not tasks that never ran.
     * One not started yet is claimed here, so that the caller, past its stop check a moment
     * before, cannot start it after all, and is returned as its future (running that runs the
     * task, unless {@code invokeAll} cancelled it meanwhile). A fork task ({@link ComputeTask},
     * or a task another pool handed back) given to {@code execute} is handed back as
     * {@link WorkStealingPool#shutdownNow()} hands back its own ({@link ForkTask#tryHandBack}),
     * so that a join waiting for it ends with a {@link java.util.concurrent.CancellationException}
     * instead of waiting for ever; one that was cancelled, or ran, meanwhile is left out.
     */
    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> notStarted = super.shutdownNow();
        notStarted.replaceAll(r -> r instanceof Invoked c ? (c.claim() ? c.future : null)
                : ForkTask.handBackIfFork(r) ? r : null);
        notStarted.removeIf(Objects::isNull);
        return notStarted;
    }

    /**
     * invokeAny on a worker of this pool: the tasks run here, in order, until one succeeds; none
     * starts once the pool is stopping.
     */
    private <T> T invokeAnyHere(Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        PoolWorker w = currentWorker();         // the caller: the tasks run on it
        long deadline = System.nanoTime() + Math.max(0L, nanos);   // as in invokeAllHere
        List<RunnableFuture<T>> futures = futures(tasks, true);
        ExecutionException failure = null;
        for (RunnableFuture<T> f : futures) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (isStopping()) {
                // after shutdownNow no task starts (its interrupt may have been swallowed by the
                // task that ran before): end as WorkStealingPool's invokeAny ends then
                throw new InterruptedException("pool " + name + " stopped before a task of invokeAny completed");
            }
            // the first task runs whatever the time left, as the JDK's invokeAny starts its first
            // task before it looks at the clock: a timeout of 0 or less threw without trying any
            if (timed && failure != null && deadline - System.nanoTime() <= 0L) {
                throw new TimeoutException();
            }
            f.run();
            w.countExecuted();                 // run on this worker, outside its loop: stats
            try {
                return f.get();
            } catch (ExecutionException e) {
                failure = e;
            }
        }
        throw failure;
    }

    // ------------------------------------------------------------------ stats

    /**
     * Returns a racy snapshot of the pool's counters (see {@link SchedulerStats}): completed
     * tasks, parks and queued tasks per worker; a pool without spare workers reports its worker
     * count as parallelism and as live workers (no live worker once it has terminated), and no
     * blocked workers. A task of an {@code invokeAll} or {@code invokeAny} called on a worker
     * counts once, on the worker that ran it (the caller, or a peer that took its queued copy
     * first).
     */
    @Override
    public SchedulerStats stats() {
        List<SchedulerStats.WorkerStats> list = new ArrayList<>(workers.length);
        for (PoolWorker w : workers) {
            list.add(new SchedulerStats.WorkerStats(w.index, false, w.executed(), 0, 0, 0, 0, 0,
                    w.parks(), queuedAt(w), w.unparks()));
        }
        return snapshot(workers.length, workers.length, 0, sharedQueued(), list, idle);
    }

    /** An estimate of the tasks waiting in all queues. */
    final long queuedCount() {
        long n = sharedQueued();
        for (PoolWorker w : workers) {
            n += queuedAt(w);
        }
        return n;
    }

    /** {@return the number of worker threads} */
    public int workers() {
        return workers.length;
    }

    @Override
    final String describe() {
        return "workers=" + workers.length + ", queued~" + queuedCount();
    }
}
