/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Scheduler;
import dev.spindle.SchedulerStats;
import dev.spindle.internal.BlockingSupport;
import dev.spindle.internal.Closing;
import dev.spindle.internal.IdleControl;
import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.Strays;
import dev.spindle.internal.jfr.JfrGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lifecycle every pool of this package shares ({@link WorkStealingPool}, and through
 * {@link AbstractPool} {@link WorkSharingPool}, {@link PriorityPool} and {@link PinnedPool}):
 * run state, the submit gate, creating and starting threads, termination, {@code shutdown},
 * {@code shutdownNow}, {@code close}, {@code awaitTermination}, failure reporting, and the rules
 * for late tasks and stray interrupts. A pool supplies its queues and its parking protocol
 * through a few hooks; its workers are {@link BaseWorker}s, which supply the loop.
 *
 * <h2>Threads</h2>
 *
 * <p>{@link #startWorkers} creates every thread before it starts any, so a thread factory that
 * fails (throws, or returns {@code null}) leaves no thread behind, and the pool's builder throws
 * an {@link IllegalStateException} naming the pool and the worker. Threads started later (spare
 * workers) go through {@link #tryStartWorker}, which reports failure instead of throwing.
 * Threads are counted in {@code started} before they start and in {@code finished} when they
 * exit or enter the stop phase; termination completes when the last one exits.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li><b>External submissions</b> are counted in flight in a {@link SubmitGate}, whose closed
 *       bit closes intake: a submitter increments the word, and if the bit was set, backs out
 *       and is rejected. {@code shutdown} sets the bit under a lock, so after it no external
 *       submission can start, and every one already started is visible in the count.</li>
 *   <li><b>Submissions from the pool's own workers</b> are accepted after {@code shutdown}, so
 *       accepted work can finish; after {@code shutdownNow} they are rejected
 *       ({@link #rejectIfStopped}).</li>
 *   <li><b>Graceful termination.</b> The pool is quiet when intake is closed and no external
 *       submission is in flight (both read from the gate's one word), every live worker is
 *       registered as parked and every queue is empty. This is checked under the parking lock
 *       ({@link IdleControl#underLock}), so no worker parks or is woken during the check; parked
 *       workers run nothing and so submit nothing, so the state is final. The check runs when
 *       the last in-flight submission ends, at {@code shutdown}, and whenever a worker parks or
 *       a spare exits after shutdown. Then every worker is woken and exits.</li>
 *   <li><b>Late tasks.</b> {@code shutdownNow} sets STOP and closes intake, waits for external
 *       submissions in flight (a few instructions each), drains every queue into its result,
 *       wakes and interrupts the workers. A task that was already running may still have
 *       submitted a task that missed the drain. So each worker, once its current task returns,
 *       enters a stop phase: it counts itself in {@code finished}, runs whatever it can still
 *       take, and exits only when every thread ever started has finished (exited or entered the
 *       stop phase) and one more look found nothing. Tasks run in the stop phase cannot submit
 *       anything (their worker saw STOP before running them, so their submissions are
 *       rejected); once every thread has finished, no task that started before STOP is
 *       running, so nothing can be added any more. A late task is therefore run, by a worker
 *       that may take it, rather than lost. {@code finished} is read before {@code started}: a
 *       thread is started only by a thread not yet finished (the constructor, or a running task
 *       entering a blocking section), so a count of finished threads that includes the starter
 *       is compared with a count of started ones that includes the thread it started. Waiting in
 *       the stop phase uses a monitor notified whenever {@code finished} grows: no polling.</li>
 *   <li><b>Stray interrupts</b> (from a {@code cancel(true)} that arrives as its task ends, say)
 *       are dropped by {@link #dropStrayInterrupt} before a worker runs a task from its loop
 *       (not one it runs inside a join, whose frame may be the interrupt's target) and before
 *       it parks (a pending interrupt would turn every park into a spin), but kept once the
 *       pool stops, so that {@code shutdownNow}'s interrupt reaches the running task.</li>
 *   <li><b>Failures.</b> A task's exception never reaches the loop: it goes to the
 *       uncaught-exception handler ({@link #reportFailure}); a handler that throws is ignored.
 *       Failures reported and tasks rejected are counted for {@link #stats()}.</li>
 * </ul>
 */
abstract class PoolCore extends CompensatingExecutorService implements Scheduler, AutoCloseable {

    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;

    final String name;
    private final ThreadFactory threadFactory;
    private final Thread.UncaughtExceptionHandler handler;
    private final boolean daemon;
    /**
     * The context class loader and the priority of every thread the default factory makes: those
     * of the thread that built the pool, as its first workers had. A thread otherwise takes its
     * creator's, and spare workers are created later by whichever thread needs one: the
     * starvation watch's starter thread (whose loader is {@code null}, so that it pins no
     * application's loader), or a task entering a blocking section, whose own loader (a web
     * application's, set for the task's call) or lowered priority the spare then kept, and lent
     * to every later task it ran, for as long as it lived.
     */
    private final ClassLoader contextClassLoader;
    private final int priority;

    volatile int runState = RUNNING;
    private final SubmitGate submitGate = new SubmitGate();
    /** Threads not yet exited; termination completes when it reaches zero. */
    private final AtomicInteger threads = new AtomicInteger();
    /** Threads ever started (spare workers included). */
    private final AtomicInteger started = new AtomicInteger();
    /** Threads that exited or entered the stop phase. */
    private final AtomicInteger finished = new AtomicInteger();
    private final Object stopLock = new Object();
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** Tasks refused because the pool was shut down (see {@link SchedulerStats#rejected()}). */
    private final AtomicLong rejected = new AtomicLong();
    /** Failures handed to the uncaught-exception handler (see {@link SchedulerStats#failed()}). */
    private final AtomicLong failed = new AtomicLong();

    /**
     * @param defaultNamePrefix with {@code seq}, the name of a pool the builder did not name:
     *     {@code <prefix>-<n>}
     */
    PoolCore(PoolBuilder<?> b, String defaultNamePrefix, AtomicInteger seq) {
        this.name = b.name != null ? b.name : defaultNamePrefix + "-" + seq.incrementAndGet();
        this.threadFactory = b.threadFactory;
        this.handler = b.handler;
        this.daemon = b.daemon;
        this.contextClassLoader = Thread.currentThread().getContextClassLoader();
        this.priority = Thread.currentThread().getPriority();
    }

    // ------------------------------------------------------------------ pool hooks

    /** The pool's parking protocol. */
    abstract IdleControl idleControl();

    /** Workers that can run tasks now; the pool is quiet only when all of them are parked. */
    abstract int liveWorkers();

    /** Whether any queue holds a task (the quiescence test of a graceful shutdown). */
    abstract boolean hasAnyTask();

    /** Moves every queued task that has not started into {@code out} (for {@code shutdownNow}). */
    abstract void drainQueued(List<Runnable> out);

    /** The worker slots, some possibly {@code null} (for interrupting them). */
    abstract BaseWorker[] workerSlots();

    /** Called after a thread other than the last has exited. */
    void workerExited(BaseWorker w) {
    }

    /** Called once, by the last thread to exit, after the pool has terminated; must not throw. */
    void terminated() {
    }

    /** What {@link #toString()} shows after the name and state, e.g. {@code workers=4}. */
    abstract String describe();

    /** {@return a racy snapshot of the pool's counters} See {@link SchedulerStats}. */
    public abstract SchedulerStats stats();

    /**
     * The snapshot a pool's {@link #stats()} returns: its own figures and this core's counts of
     * rejected and failed tasks. Both are rare events off the hot path (a shutdown pool, a task
     * that threw), so one shared atomic counter each is enough. The idle figures are read from
     * the pool's idle protocol ({@code parkedCount}, {@code searchingCount}: one volatile read
     * each, nothing the protocol depends on). Once the pool has terminated no worker runs: every
     * worker figure (live, blocked, parked, searching, and so active) is reported as zero,
     * whatever the counts were left at. The pools' live counts never drop to zero by themselves
     * (a pool without spares reports the length of its worker array, a work-stealing pool its
     * core workers), so a terminated pool read as running for as long as it was reachable; and
     * after {@code shutdownNow} a worker that was running a task exits without registering as
     * parked, so live minus parked read it as active for good.
     */
    final SchedulerStats snapshot(int parallelism, int liveWorkers, int blockedWorkers, long sharedQueued,
            List<SchedulerStats.WorkerStats> workers, IdleCoordinator idle) {
        return snapshot(parallelism, liveWorkers, blockedWorkers, sharedQueued, workers,
                idle.parkedCount(), idle.searchingCount());
    }

    /** As above, with the idle figures already read (a pool that checks them against a move). */
    final SchedulerStats snapshot(int parallelism, int liveWorkers, int blockedWorkers, long sharedQueued,
            List<SchedulerStats.WorkerStats> workers, int parked, int searching) {
        boolean over = isTerminated();
        return new SchedulerStats(name, parallelism, over ? 0 : liveWorkers, over ? 0 : blockedWorkers,
                sharedQueued, workers, rejected.get(), failed.get(), over ? 0 : parked, over ? 0 : searching);
    }

    // ------------------------------------------------------------------ threads

    /**
     * Creates threads for {@code ws[0 .. n)}, then starts them. Pools call it last in their
     * constructor, once their queues exist.
     *
     * @throws IllegalStateException if the factory fails for one of them; then no thread of this
     *     pool was started. Also if a thread's {@code start()} fails, with that failure as the
     *     cause; the threads started before it exit
     */
    final void startWorkers(BaseWorker[] ws, int n) {
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            ts[i] = newThread(ws[i]);
        }
        for (int i = 0; i < n; i++) {
            Throwable failure = start(ws[i], ts[i]);
            if (failure != null) {
                shutdownNow();                 // the threads already started exit
                // the start's failure is the cause (an OutOfMemoryError: unable to create native
                // thread, usually), as a ThreadPoolExecutor or ForkJoinPool lets it through:
                // dropped, the caller was told only that the thread could not be started
                throw new IllegalStateException("pool " + name + ": the thread of worker "
                        + ws[i].index + " could not be started: " + Strays.describe(failure), failure);
            }
        }
    }

    /**
     * Creates and starts a thread for {@code w} (a spare worker).
     *
     * @return {@code false} if no thread could be had; nothing was started then
     */
    final boolean tryStartWorker(BaseWorker w) {
        if (threads.get() == 0) {
            return false;                      // terminated: see below; spare the factory the call
        }
        Thread t;
        try {
            t = newThread(w);
        } catch (IllegalStateException | OutOfMemoryError e) {
            return false;
        }
        // A thread of the pool that asks for a spare (a blocking section, a long join) keeps the
        // pool from terminating while it asks; the starvation watch, which asks from a thread of
        // its own, does not, and the last worker may exit between its look and this start. So a
        // spare claims its place among the pool's threads only while one is left: none starts
        // once the pool has terminated.
        for (int n; ; ) {
            if ((n = threads.get()) == 0) {
                return false;
            }
            if (threads.compareAndSet(n, n + 1)) {
                return launch(w, t) == null;
            }
        }
    }

    private Thread newThread(BaseWorker w) {
        Thread t;
        if (threadFactory != null) {
            try {
                t = threadFactory.newThread(w);
            } catch (Throwable e) {
                // an Error too, and a checked exception thrown sneakily (a factory written in
                // Kotlin, say): tryStartWorker must report failure, not throw (see Spares.addSpare);
                // the starvation watch asks on a starter thread of its own, which it would end
                throw new IllegalStateException("pool " + name + ": threadFactory failed for worker "
                        + w.index + ": " + Strays.describe(e), e);
            }
            if (t == null) {
                throw new IllegalStateException("pool " + name + ": threadFactory returned null for worker "
                        + w.index);
            }
        } else {
            t = new WorkerThread(w);
            t.setDaemon(daemon);
            t.setContextClassLoader(contextClassLoader);
            t.setPriority(priority);
        }
        t.setName(name + "-worker-" + w.index);
        w.thread = t;
        return t;
    }

    /** Counts and starts {@code t}; returns what its start threw, or {@code null} if it started. */
    private Throwable start(BaseWorker w, Thread t) {
        threads.incrementAndGet();
        return launch(w, t);
    }

    /** {@return the context class loader of the threads the default factory makes} */
    final ClassLoader contextClassLoader() {
        return contextClassLoader;
    }

    /**
     * Starts {@code t}, already counted among the pool's threads.
     *
     * @return what {@code t.start()} threw, or {@code null} if it started
     */
    private Throwable launch(BaseWorker w, Thread t) {
        started.incrementAndGet();
        w.finishedCounted = false;
        w.alive = true;
        try {
            t.start();
            return null;
        } catch (Throwable e) {
            // counted as a thread that finished and exited at once, so the counts stay monotonic
            w.alive = false;
            countFinished(w);
            threadExited(w);
            return e;
        }
    }

    /**
     * The thread class of the default factory; lets a worker be found without a thread-local.
     * It inherits no {@link InheritableThreadLocal} values: a thread is made by whichever thread
     * needs it (a spare by a task entering a blocking section), and a value inherited from that
     * task's context (a request's, say) was seen by every later task the thread ran.
     */
    static final class WorkerThread extends Thread {
        final BaseWorker worker;

        WorkerThread(BaseWorker worker) {
            super(null, worker, "spindle-worker", 0, false);   // renamed by newThread
            this.worker = worker;
        }
    }

    /** The worker the calling thread runs, in whichever pool, or {@code null}. */
    static BaseWorker workerOfCurrentThread() {
        Thread t = Thread.currentThread();
        if (t instanceof WorkerThread wt) {
            return wt.worker;
        }
        return BlockingSupport.current() instanceof BaseWorker w ? w : null;
    }

    /**
     * The worker the calling thread runs, if it is one of this pool's; else {@code null}. On the
     * submit path of every call from outside, so the thread-local is read only where the pool's
     * threads may come from a custom factory.
     */
    final BaseWorker currentWorkerOfThisPool() {
        Thread t = Thread.currentThread();
        BaseWorker w;
        if (t instanceof WorkerThread wt) {
            w = wt.worker;
        } else if (threadFactory != null && BlockingSupport.current() instanceof BaseWorker b) {
            w = b;
        } else {
            return null;
        }
        return w.core == this ? w : null;
    }

    /** Whether the calling thread is a worker of this pool. */
    final boolean isWorkerOfThisPool() {
        return currentWorkerOfThisPool() != null;
    }

    // ------------------------------------------------------------------ the worker's life

    /**
     * What a worker's thread runs: its loop, the stop phase if the pool stops, and the exit.
     *
     * <p><b>Why the loop goes in rounds.</b> A loop that never returns runs, once hot, in code
     * that HotSpot compiled for it while it ran (on-stack replacement), and keeps running that
     * code for the thread's life even after the JIT has replaced it (the first compilation of a
     * hot loop is replaced by a better one within a second or so): a thread does not move to
     * newer code for a frame it is in, and calls out of replaced code are not re-linked, so a
     * callee whose compiled code was being replaced when such a call was linked runs
     * interpreted from then on. In the async runtime, whose workers ran such a loop, that made
     * one runtime of the async benchmark 5 to 15 times slower for a whole run in some JVMs, its
     * workers' samples in an interpreted {@code next()} (docs/BENCHMARKS.md, session 18; the
     * pools' workers showed no interpreted samples in the JVMs profiled, but their loop has the
     * same shape). So a worker's loop is a round ({@link BaseWorker#work}) that ends when the
     * worker goes idle (a park) or after {@link BaseWorker#TASKS_PER_ROUND} tasks, entered
     * afresh through the method's current code each time. Counting tasks alone was not enough:
     * under light load, bursts with idle gaps, a round of 65,536 tasks lasts minutes, and on
     * JDK 25 beside virtual threads 4 of 10 JVMs ran the async runtime's fan-out of 1,000 tasks
     * at a time 4 to 6 times slower for the whole run, none of 18 once a park ended the round
     * (session 22). A park costs far more than the return and call that end a round there; the
     * loop here goes round too rarely per task to be compiled itself. spindle-async's
     * {@code AsyncWorker} does the same.
     */
    final void runWorker(BaseWorker w) {
        BlockingSupport.bindCurrent(w);
        try {
            w.started();
            for (;;) {
                try {
                    while (w.work()) {
                        w.rounds++;            // the next round, through work()'s current code
                    }
                    break;
                } catch (Throwable e) {
                    // an Error in the loop itself, outside any task (an OutOfMemoryError in its
                    // own code): the thread ended while its pool still counted the worker live,
                    // so a graceful shutdown, waiting for it to park, never terminated the pool
                    // (and a PinnedPool's tasks pinned to it never ran). It goes on instead, much
                    // as a ThreadPoolExecutor replaces a worker that died; the handler is told
                    if (!w.survives(e)) {
                        throw e;
                    }
                    reportToHandler(w.thread, e);
                    if (runState >= STOP || idleControl().isTerminated()) {
                        break;
                    }
                }
            }
            if (runState >= STOP) {
                stopPhase(w);
            }
        } finally {
            BlockingSupport.bindCurrent(null);
            try {
                w.ended();                     // before the pool can terminate: see BaseWorker
            } catch (Throwable e) {
                // an event that fails (out of memory) must not keep the thread counted live
            }
            if (!w.finishedCounted) {
                countFinished(w);
            }
            w.alive = false;
            threadExited(w);
        }
    }

    private void threadExited(BaseWorker w) {
        if (threads.decrementAndGet() == 0) {
            terminated.countDown();
            terminated();
        } else {
            workerExited(w);
        }
    }

    /** After {@code shutdownNow}: run what this worker can still take, then exit (see above). */
    private void stopPhase(BaseWorker w) {
        countFinished(w);
        for (;;) {
            int f = finished.get();
            for (Runnable t; (t = w.takeLate()) != null; ) {
                w.runLate(t);
            }
            if (f == started.get()) {
                return;                        // read before the last look: nothing can follow it
            }
            synchronized (stopLock) {
                while (finished.get() == f) {
                    try {
                        stopLock.wait();
                    } catch (InterruptedException e) {
                        // shutdownNow's interrupt, meant for a running task: keep waiting
                    }
                }
            }
        }
    }

    private void countFinished(BaseWorker w) {
        w.finishedCounted = true;
        finished.incrementAndGet();
        synchronized (stopLock) {
            stopLock.notifyAll();
        }
    }

    /** Drops a stray interrupt of the calling worker unless the pool stops (see above). */
    final void dropStrayInterrupt() {
        if (Thread.interrupted() && runState >= STOP) {
            Thread.currentThread().interrupt(); // shutdownNow's: keep it
        }
    }

    /** Hands a task's failure to the uncaught-exception handler; never throws. */
    final void reportFailure(Thread t, Throwable ex) {
        failed.incrementAndGet();
        reportToHandler(t, ex);
    }

    /** Hands {@code ex} to the uncaught-exception handler, counted as no task's failure; never throws. */
    final void reportToHandler(Thread t, Throwable ex) {
        try {
            Thread.UncaughtExceptionHandler h = handler != null ? handler : t.getUncaughtExceptionHandler();
            h.uncaughtException(t, ex);
        } catch (Throwable ignored) {
            // a failing handler must not take the worker down with it
        }
    }

    // ------------------------------------------------------------------ submission support

    /**
     * Counts an external submission in flight.
     *
     * @throws RejectedExecutionException if intake is closed
     */
    final void beginExternalSubmit() {
        if (!submitGate.enter()) {
            endExternalSubmit();
            rejected.incrementAndGet();
            throw JfrGate.rejected(name, new RejectedExecutionException("pool " + name + " is shut down"));
        }
    }

    /** Ends what {@link #beginExternalSubmit} began; the last one out after shutdown checks for quiet. */
    final void endExternalSubmit() {
        if (submitGate.leave()) {
            tryTerminate();
        }
    }

    /** For submissions from a worker: accepted after shutdown, rejected after shutdownNow. */
    final void rejectIfStopped() {
        if (runState >= STOP) {
            rejected.incrementAndGet();
            throw JfrGate.rejected(name, new RejectedExecutionException("pool " + name + " is stopped"));
        }
    }

    final boolean isStopping() {
        return runState >= STOP;
    }

    // ------------------------------------------------------------------ lifecycle

    /** Ends a graceful shutdown once the pool is quiet (see the class overview). */
    final void tryTerminate() {
        IdleControl idle = idleControl();
        if (runState < SHUTDOWN || idle.isTerminated()) {
            return;
        }
        // The gate itself, not runState: shutdown() writes runState before it closes the gate,
        // and a worker parking in between read the pool as shut down while submissions were
        // still admitted; quiet then, it terminated the pool, and a task accepted a moment later
        // never ran (awaitTermination answered true all the same)
        boolean quiet = idle.underLock(parked ->
                submitGate.closedAndEmpty()
                        && parked == liveWorkers()
                        && !hasAnyTask());
        if (quiet) {
            idle.terminate();
        }
    }

    /**
     * Stops accepting tasks from threads outside the pool; tasks already accepted run, and so
     * do the tasks they submit. Returns at once; use {@link #awaitTermination} to wait.
     */
    @Override
    public void shutdown() {
        synchronized (submitGate) {
            if (runState < SHUTDOWN) {
                runState = SHUTDOWN;
            }
            submitGate.close();
        }
        tryTerminate();
    }

    /**
     * Stops the pool: rejects further tasks, interrupts running ones (the caller's own, if it is a
     * task of this pool), and returns every accepted task that had not started, in no particular
     * order. A task submitted from a running task at the same moment is either returned or run
     * before its worker exits. An interrupt that throws (it closes an interruptible channel the
     * task waits in, and the close failed) goes to the uncaught-exception handler; the other
     * workers are interrupted all the same, and the tasks are returned.
     */
    @Override
    public List<Runnable> shutdownNow() {
        synchronized (submitGate) {
            runState = STOP;
            submitGate.close();
        }
        submitGate.awaitNoneInFlight();
        List<Runnable> notStarted = new ArrayList<>();
        drainQueued(notStarted);
        idleControl().terminate();
        // A task of this pool that calls shutdownNow() is one of the running tasks, and is
        // interrupted with the others, as a ThreadPoolExecutor's is: sparing it left a task that
        // runs until interrupted (or waits interruptibly) running, and the pool never terminated.
        for (BaseWorker w : workerSlots()) {
            Thread t = w == null ? null : w.thread;
            if (t != null && w.alive) {
                try {
                    t.interrupt();
                } catch (RuntimeException | Error e) {
                    // the interrupt is set by then; what threw is what it runs next, on this
                    // thread: the close of an interruptible channel the task waits in. Thrown
                    // from here, it lost the tasks drained above (nobody got the list: a
                    // submit's future among them never completed) and spared the later workers
                    reportFailure(t, e);
                }
            }
        }
        return notStarted;
    }

    @Override
    public boolean isShutdown() {
        return runState >= SHUTDOWN;
    }

    @Override
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#awaitTermination}. A pool that has terminated
     * answers {@code true} at once, even to a thread whose interrupt is pending, which keeps it,
     * as a {@link java.util.concurrent.ThreadPoolExecutor} and a
     * {@link java.util.concurrent.ForkJoinPool} do: there is nothing to wait for. The latch alone
     * looks at the interrupt first, and threw {@link InterruptedException} for a pool that was
     * done. For the same reason a pool not yet terminated answers {@code false} at once to a
     * timeout of 0 or less, its interrupt kept, as a {@code ThreadPoolExecutor}, JDK 17's
     * {@code ForkJoinPool} and a {@link SchedulerUnion} do (JDK 25's {@code ForkJoinPool} throws):
     * there is no wait to interrupt.
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = Objects.requireNonNull(unit, "unit").toNanos(timeout);   // first, whatever the state
        if (isTerminated()) {
            return true;
        }
        return nanos > 0 && terminated.await(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Shuts down and waits for termination, as {@code ExecutorService.close()} does from Java
     * 19: if interrupted while waiting it calls {@link #shutdownNow()} once, keeps waiting, and
     * restores the interrupt. The tasks that {@code shutdownNow()} returns do not run; those
     * that are {@link Future}s (from {@code submit}) are cancelled, so that their callers are
     * told; if cancelling one throws (a future of the caller's own whose {@code done()} fails),
     * the others are cancelled all the same, and {@code close()} rethrows that failure once the
     * pool has terminated. Called from a worker of this pool it only shuts down, since the pool
     * cannot terminate while the caller's task runs.
     */
    @Override
    public void close() {
        Closing.close(this, isWorkerOfThisPool(), Closing::cancelIfFuture);
    }

    /** {@return the pool's name, the prefix of its threads' names} */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        String s = switch (runState) {
            case RUNNING -> "running";
            case SHUTDOWN -> isTerminated() ? "terminated" : "shutting down";
            default -> isTerminated() ? "terminated" : "stopping";
        };
        return getClass().getSimpleName() + "[" + name + ", " + s + ", " + describe() + "]";
    }
}
