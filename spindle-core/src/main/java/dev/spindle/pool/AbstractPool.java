/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Scheduler;
import dev.spindle.internal.BlockingSupport;
import dev.spindle.queue.Injector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What {@link WorkSharingPool}, {@link PriorityPool} and {@link PinnedPool} share: threads,
 * the worker loop, parking, the lifecycle, failure reporting and statistics. A subclass
 * supplies its queues through a few hooks ({@link #poll}, {@link #hasWorkFor},
 * {@link #hasAnyTask}, {@link #drainQueued}, {@link #queuedCount}) and its own
 * {@code execute}, which must use {@link #beginExternalSubmit}/{@link #endExternalSubmit} around
 * a submission from outside the pool and {@link #rejectIfStopped} for one from a worker.
 *
 * <h2>The worker loop</h2>
 *
 * <p>Take a task ({@link #poll}) and run it; with none, park following {@link Parking}. A worker
 * woken by {@link Parking#notifyWork()} counts as searching until it takes a task; if it was the
 * last searcher and work is still queued, it wakes the next worker.
 *
 * <h2>Lifecycle (the same rules as {@link WorkStealingPool})</h2>
 *
 * <ul>
 *   <li><b>External submissions</b> are counted in flight in a {@code SubmitGate}, whose closed bit
 *       closes intake: a submitter increments the word, and if the bit was set, backs out and
 *       is rejected. {@code shutdown} sets the bit under a lock, so after it no external
 *       submission can start, and every one already started is visible in the count.</li>
 *   <li><b>Submissions from the pool's own workers</b> are accepted after {@code shutdown}, so
 *       accepted work can finish; after {@code shutdownNow} they are rejected.</li>
 *   <li><b>Graceful termination.</b> The pool is quiet when intake is closed, no external
 *       submission is in flight, every worker is registered as parked and every queue is empty.
 *       This is checked under the parking lock, so no worker parks or is woken during the
 *       check; parked workers run nothing and so submit nothing, so the state is final. The
 *       check runs when the last in-flight submission ends, at {@code shutdown}, and whenever a
 *       worker parks after shutdown. Then every worker is woken and exits.</li>
 *   <li><b>Stopping.</b> {@code shutdownNow} sets STOP and closes intake, waits for external
 *       submissions in flight (a few instructions each), drains every queue into its result,
 *       wakes and interrupts the workers. A task that was already running may still have
 *       submitted a task that missed the drain. So each worker, once its current task returns,
 *       enters a stop phase: it counts itself in {@code finished}, runs whatever it can still
 *       take, and exits only when every worker has finished (exited or entered the stop
 *       phase) and one more look found nothing. Tasks run in the stop phase cannot submit
 *       anything (their worker saw STOP before running them, so their submissions are
 *       rejected); once every worker has finished, no task that started before STOP is
 *       running, so nothing can be added any more. A late task is therefore run, by a worker
 *       that may take it, rather than lost. Waiting in the stop phase uses a monitor
 *       notified whenever {@code finished} grows: no polling.</li>
 * </ul>
 *
 * <p>A task's exception never reaches the loop: it goes to the uncaught-exception handler (a
 * handler that throws is ignored). Tasks from {@code submit} are {@link
 * java.util.concurrent.FutureTask}s, which complete exceptionally instead. An interrupt left
 * over from a cancelled task is cleared before the next task runs, unless the pool is stopping.
 */
abstract class AbstractPool extends AbstractExecutorService implements Scheduler, AutoCloseable {

    private static final AtomicInteger POOL_SEQ = new AtomicInteger();

    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;


    final String name;
    final PoolWorker[] workers;
    final Parking parking;
    /** Whether any worker may run any queued task (then woken workers search; see {@link Parking}). */
    private final boolean sharedQueues;

    private final ThreadFactory threadFactory;
    private final boolean customThreads;
    private final Thread.UncaughtExceptionHandler handler;
    private final boolean daemon;

    volatile int runState = RUNNING;
    private final SubmitGate submitGate = new SubmitGate();
    /** Threads not yet exited; termination completes when it reaches zero. */
    private final AtomicInteger threads = new AtomicInteger();
    /** Workers that exited or entered the stop phase. */
    private final AtomicInteger finished = new AtomicInteger();
    private final Object stopLock = new Object();
    private final CountDownLatch terminated = new CountDownLatch(1);

    /**
     * @param sharedQueues whether every worker may take every queued task
     * @param ownQueues whether each worker gets a queue of its own ({@link PoolWorker#queue})
     */
    AbstractPool(PoolBuilder<?> b, String kind, boolean sharedQueues, boolean ownQueues) {
        this.name = b.name != null ? b.name : kind + "-" + POOL_SEQ.incrementAndGet();
        this.sharedQueues = sharedQueues;
        this.customThreads = b.threadFactory != null;
        this.threadFactory = b.threadFactory;
        this.handler = b.handler;
        this.daemon = b.daemon;
        this.workers = new PoolWorker[b.workers];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new PoolWorker(this, i, ownQueues ? new Injector<>() : null);
        }
        this.parking = new Parking(workers.length);
    }

    /**
     * Creates and starts the worker threads. Subclasses call it last in their constructor, once
     * their queues exist. Every thread is created before any is started, so a failing factory
     * leaves no thread behind.
     */
    final void startWorkers() {
        Thread[] ts = new Thread[workers.length];
        for (int i = 0; i < workers.length; i++) {
            PoolWorker w = workers[i];
            Thread t;
            if (customThreads) {
                t = threadFactory.newThread(w);
                if (t == null) {
                    throw new IllegalStateException("threadFactory returned null for worker " + i);
                }
            } else {
                t = new PoolThread(w);
                t.setDaemon(daemon);
            }
            t.setName(name + "-worker-" + i);
            w.thread = t;
            ts[i] = t;
        }
        threads.set(workers.length);
        for (Thread t : ts) {
            t.start();
        }
    }

    /** The thread class of the default factory; lets a worker be found without a thread-local. */
    static final class PoolThread extends Thread {
        final PoolWorker worker;

        PoolThread(PoolWorker worker) {
            super(worker);
            this.worker = worker;
        }
    }

    // ------------------------------------------------------------------ subclass hooks

    /** The next task for {@code w}, or {@code null}; called only on {@code w}'s thread. */
    abstract Runnable poll(PoolWorker w);

    /**
     * Whether {@code w} could take a task now; its re-check before parking. Must read every
     * queue {@link #poll} takes from with volatile reads (see {@link Parking}).
     */
    abstract boolean hasWorkFor(PoolWorker w);

    /** Whether any queue holds a task (the quiescence test of a graceful shutdown). */
    abstract boolean hasAnyTask();

    /** Moves every queued task into {@code out} (for {@code shutdownNow}). */
    abstract void drainQueued(List<Runnable> out);

    /** An estimate of the tasks waiting. */
    abstract long queuedCount();

    /** Called on {@code w}'s thread when a task there enters a blocking section. */
    void beforeBlocking(PoolWorker w) {
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
            throw new RejectedExecutionException("pool " + name + " is shut down");
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
            throw new RejectedExecutionException("pool " + name + " is stopped");
        }
    }

    /** The worker the calling thread runs, if it is one of this pool's; else {@code null}. */
    final PoolWorker currentWorker() {
        Thread t = Thread.currentThread();
        if (t instanceof PoolThread pt) {
            PoolWorker w = pt.worker;
            return w.pool == this ? w : null;
        }
        if (customThreads && BlockingSupport.current() instanceof PoolWorker w && w.pool == this) {
            return w;
        }
        return null;
    }

    /** Whether the calling thread is a worker of this pool. */
    final boolean isWorkerOfThisPool() {
        return currentWorker() != null;
    }

    // ------------------------------------------------------------------ the worker loop

    final void runWorker(PoolWorker w) {
        BlockingSupport.bindCurrent(w);
        try {
            loop(w);
        } finally {
            BlockingSupport.bindCurrent(null);
            if (!w.finishedCounted) {
                countFinished(w);
            }
            w.exited = true;
            if (threads.decrementAndGet() == 0) {
                terminated.countDown();
            }
        }
    }

    private void loop(PoolWorker w) {
        for (;;) {
            if (runState >= STOP) {
                stopPhase(w);
                return;
            }
            Runnable task = poll(w);
            if (task != null) {
                if (w.searching) {
                    w.searching = false;
                    if (parking.stopSearching() && hasWorkFor(w)) {
                        parking.notifyWork();  // more work than this worker: wake the next one
                    }
                }
                runTask(w, task);
                continue;
            }
            if (!idle(w)) {
                if (runState >= STOP) {
                    stopPhase(w);
                }
                return;
            }
        }
    }

    /**
     * Parks {@code w} (see {@link Parking}).
     *
     * @return {@code false} if the worker should leave its loop (the pool terminated or stops)
     */
    private boolean idle(PoolWorker w) {
        boolean recheck = parking.prepareToPark(w, w.searching);
        w.searching = false;
        if (recheck && hasWorkFor(w)) {
            if (!parking.cancelPark(w)) {
                w.searching = sharedQueues;    // woken meanwhile, and counted as a searcher
            }
            return true;
        }
        if (runState >= SHUTDOWN) {
            tryTerminate();
        }
        w.countPark();
        if (!parking.await(w)) {
            return false;
        }
        w.searching = sharedQueues;            // notifyWork counts whom it wakes as searching
        return true;
    }

    /** After {@code shutdownNow}: run what this worker can still take, then exit (see above). */
    private void stopPhase(PoolWorker w) {
        countFinished(w);
        for (;;) {
            int f = finished.get();
            for (Runnable t; (t = poll(w)) != null; ) {
                runTask(w, t);
            }
            if (f == workers.length) {
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

    private void countFinished(PoolWorker w) {
        w.finishedCounted = true;
        finished.incrementAndGet();
        synchronized (stopLock) {
            stopLock.notifyAll();
        }
    }

    final void runTask(PoolWorker w, Runnable task) {
        if (Thread.interrupted() && runState >= STOP) {
            Thread.currentThread().interrupt(); // keep shutdownNow's interrupt, drop stray ones
        }
        try {
            task.run();
        } catch (Throwable ex) {
            reportFailure(w.thread, ex);
        }
        w.countExecuted();
    }

    private void reportFailure(Thread t, Throwable ex) {
        try {
            Thread.UncaughtExceptionHandler h = handler != null ? handler : t.getUncaughtExceptionHandler();
            h.uncaughtException(t, ex);
        } catch (Throwable ignored) {
            // a failing handler must not take the worker down with it
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /** Ends a graceful shutdown once the pool is quiet (see the class overview). */
    final void tryTerminate() {
        if (runState < SHUTDOWN || parking.isTerminated()) {
            return;
        }
        boolean quiet = parking.underLock(parked ->
                submitGate.noneInFlight()
                        && parked == workers.length
                        && !hasAnyTask());
        if (quiet) {
            parking.terminate();
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
     * Stops the pool: rejects further tasks, interrupts running ones, and returns every accepted
     * task that had not started, in no particular order. A task submitted from a running task
     * at the same moment is either returned or run before its worker exits.
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
        parking.terminate();
        Thread self = Thread.currentThread();
        for (PoolWorker w : workers) {
            Thread t = w.thread;
            if (t != null && t != self && !w.exited) {
                t.interrupt();
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

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /**
     * Shuts down and waits for termination, as {@code ExecutorService.close()} does from Java
     * 19: if interrupted while waiting it calls {@link #shutdownNow()} once, keeps waiting, and
     * restores the interrupt. Called from a worker of this pool it only shuts down, since the
     * pool cannot terminate while the caller's task runs.
     */
    @Override
    public void close() {
        Closing.close(this, currentWorker() != null);
    }

    // ------------------------------------------------------------------ stats

    /** Returns a snapshot of the pool's counters; exact once the pool is quiet. */
    public SchedulerStats stats() {
        List<Long> executed = new ArrayList<>(workers.length);
        long parks = 0;
        for (PoolWorker w : workers) {
            executed.add(w.executed());
            parks += w.parks();
        }
        return new SchedulerStats(name, workers.length, executed, queuedCount(), parks);
    }

    /** Returns the pool's name, the prefix of its threads' names. */
    public String name() {
        return name;
    }

    /** Returns the number of worker threads. */
    public int workers() {
        return workers.length;
    }

    @Override
    public String toString() {
        String s = switch (runState) {
            case RUNNING -> "running";
            case SHUTDOWN -> isTerminated() ? "terminated" : "shutting down";
            default -> isTerminated() ? "terminated" : "stopping";
        };
        return getClass().getSimpleName() + "[" + name + ", " + s + ", workers=" + workers.length
                + ", queued~" + queuedCount() + "]";
    }
}
