/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The backstop for a {@link WorkStealingPool} whose every worker waits, where the pool cannot see
 * it, inside a task, while work is queued that those waits may depend on: it starts a spare
 * worker, as the pool does for a {@link dev.spindle.Spindle#blocking} section. One instance per
 * pool; one JVM-wide daemon thread ({@code spindle-starvation-watch}) looks at the pools that
 * need it.
 *
 * <h2>Why it is needed</h2>
 *
 * <p>The commonest way to wait inside a pool is {@code CompletableFuture.supplyAsync(x,
 * pool).join()} in a task of {@code pool}. A {@code ForkJoinPool} completes it because
 * {@code CompletableFuture} waits through {@code ForkJoinPool.managedBlock}, which compensates for
 * the waiting worker; on this pool the wait is an ordinary park. With a free worker that is
 * harmless: the inner task is stolen or taken from the injector (and the parked worker that holds
 * the pool's watcher role, or a parked spare, takes it from the waiting worker's queues,
 * {@code LoneTaskWatch}). But once every worker waits so (one worker waiting
 * once; two workers with two such tasks), nobody is left to run what they wait for, and the pool
 * hangs for good. Latches, futures of other libraries and monitors do the same.
 *
 * <h2>What it looks at, and when</h2>
 *
 * <p>Only while no core worker of the pool is parked: a parked core worker is woken for visible
 * work by the idle protocol, and the parked watcher ({@code WatcherRole}) takes work queued behind
 * a task that runs on (a core worker that leaves its wait with no core worker parked to take the
 * role takes a peer's silently filled slot first, see Worker), so a pool with one is not starving.
 * A parked <em>spare</em> is no such guarantee: the idle protocol wakes a spare only while some
 * worker is in a blocking section (an unseen wait is in none), and a spare that found nothing to
 * watch when it parked sleeps out its keep-alive (60 s by default). Taken for one, it kept the
 * watch away while the only core worker waited, unseen, for the task it had just queued on
 * itself ({@code supplyAsync(x, pool).join()} after a blocking section had left a spare parked),
 * for the whole keep-alive (StarvationBesideAParkedSpareTest). A worker that begins a round of its
 * loop (at its start, after every park, and every {@link BaseWorker#TASKS_PER_ROUND} tasks) and
 * sees no parked core worker <em>arms</em> the watch: a CAS on {@code armed}, and an unpark of the
 * watch thread. Nothing is added to the task path. Every {@link #INTERVAL_NANOS} the
 * watch thread looks at each armed pool: a pool that has a parked core worker (or stops) is
 * disarmed. A pool is starving when work is queued anywhere in it and every live
 * worker that is not parked has neither started nor finished a task since the previous look ({@link Worker#progress}, a count kept anyway) and its thread waits without a
 * time limit ({@link Thread.State#WAITING}: a {@code join}, an untimed {@code get} or
 * {@code await}, {@code LockSupport.park}): then a parked spare is woken
 * ({@code IdleCoordinator.wakeParkedSpare}, counted as searching, as any woken worker), or if none
 * is parked one spare starts (up to {@link WorkStealingPool.Builder#maxSpareWorkers}). A worker inside a blocking section
 * ({@link dev.spindle.Spindle#blocking}, or a join that waited long and counts as blocked) and
 * making no progress is left out of the test, whatever its thread does: the pool compensates for
 * it already, so what it waits for cannot relieve the others; counted in, a join's brief timed
 * parks kept a pool whose other workers all waited unseen from ever getting a spare. At least
 * one worker outside such a section must wait so. Only such waits can be waits for good. A
 * worker that computes for long is runnable; one that sleeps or waits with a time limit
 * ({@code TIMED_WAITING}) ends its wait by itself; one blocked on a monitor ({@code BLOCKED}) waits
 * for another thread's lock, which a spare would queue for too. None of them gets a spare: a pool
 * that paces its tasks with sleeps or timed polls does not grow, and a pool busy computing never
 * runs more threads than it has workers. A new
 * spare, or a spare parked at the previous look, counts as progress at the first look, so spares
 * start (or are woken) at most one an interval. A spare
 * retires as the pool's other spares do, when it next goes idle while the pool has more live
 * workers than it needs; if the waits still hold then, the watch starts another.
 *
 * <h2>Why no arming is missed</h2>
 *
 * <p>Disarming writes {@code armed = false} and then reads the parked core workers' count (the
 * idle word); arming follows a core worker's leaving the parked stack (the waker's or its own
 * write to the idle word) and then reads {@code armed}, in the round the worker then begins. All
 * four are volatile, so either the watch sees the worker gone from the parked stack (and re-arms
 * the pool itself) or the worker sees {@code armed} false (and arms it). A pool whose awake
 * workers all wait therefore stays armed: each of them began its round, after its last park,
 * with either no parked core worker (it armed) or a parked one that has since left the stack
 * (that worker's next round armed it). Parked spares neither disarm the pool nor need to arm it
 * (a spare that retires still arms it, which is harmless).
 *
 * <h2>Why an arming cannot fail</h2>
 *
 * <p>Arming is the flag alone. Everything that can fail for want of memory or of a thread is done
 * when the pool is built ({@link #register}, which the pool's constructor calls, so a failure
 * fails the build and the caller is told): the pool joins the JVM-wide list of registered pools
 * (copied on write, so the watch reads it without a lock) and the watch thread is started if none
 * runs. The thread then runs for as long as a registered pool has not terminated, and reads every
 * registered pool's flag, so an armed pool is seen whether or not the unpark that follows the CAS
 * reached it. Earlier, arming put the pool in a watched list and, after an idle exit, started the
 * watch thread; when either failed (an {@link OutOfMemoryError}) the pool was left unarmed for
 * the next round to arm, and a round that then ran a task waiting, unseen, for work queued behind
 * it never ended: when every worker came to wait so, no round began again and the pool hung for
 * good (StarvationWatchArmingThatFailsBeforeAWaitTest). A pool leaves the list when it terminates
 * ({@link #poolTerminated}); one that the list still holds then (its removal failed for want of
 * memory) is dropped at the watch's next idle pass.
 *
 * <h2>One pool cannot stall the others</h2>
 *
 * <p>The watch thread serves every pool in the JVM, so it never calls into a pool's thread
 * factory itself: a spare is started by a short-lived thread of its own ({@link #startSpare}),
 * at most one per pool at a time, and the watch goes on looking at the other pools meanwhile.
 * Starting a spare calls the user's factory under the pool's spare lock; done on the watch
 * thread, a factory that blocked (or was slow) held the watch, and another pool that starved
 * meanwhile was never relieved and hung (StarvationSpareStartRegressionTest). While a pool's
 * start is still in its factory, the watch starts no other for that pool, so a factory that
 * blocks holds one thread, not one per interval. A start that started no spare (the factory
 * threw or returned null, no thread could be had, the pool is at {@code maxSpareWorkers}) makes
 * the next wait twice as long as the last, up to {@link #MAX_BACKOFF_SHIFT} doublings of the
 * interval; a spare that starts resets it. Without that, a pool that starved for good with a
 * factory that always threw had a starter thread created, and its factory called, every
 * interval for as long as it starved (StarvationBackoffRegressionTest). An error thrown while
 * the watch looks at one pool is caught there, and the watch goes on with the others: it ended
 * the thread, which stayed recorded as the watch, so no pool in the JVM was relieved again
 * (StarvationWatchSurvivesAFailedLookTest). So is one thrown while the watch reads the registered
 * pools, before it looks at any (when that was a copy into a batch, its growth could fail): the
 * watch then looks at none that interval and reads again at the next
 * (StarvationWatchSurvivesAFailedCopyTest). So is one thrown in an idle pass (the exit test waits
 * for the registration lock): the watch stays and tests again at the next
 * (StarvationWatchSurvivesAFailedIdlePassTest). The error of a look goes to that pool's uncaught-exception
 * handler, the first of a run of failed looks only (StarvationWatchReportsAFailedLookTest).
 *
 * <h2>Cost</h2>
 *
 * <p>An idle pool has parked core workers and is not looked at: with no pool armed the watch
 * thread parks, woken by the next arming or after {@link #IDLE_EXIT_NANOS} to drop terminated
 * pools, a read of each registered pool's flag. It exits once no registered pool is left (every
 * pool built has terminated) for {@link #IDLE_EXIT_NANOS}, and the next pool built starts another.
 * A pool busy on every core worker (spares parked or not) is looked at once an interval: a few
 * reads per worker.
 */
final class StarvationWatch {

    /** How long every worker must wait, with no task started or finished, before a spare starts. */
    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * At most 2^6 intervals (1.28 s) between the spare starts of a pool whose starts fail: a
     * factory that recovers, or a spare slot that frees, is noticed within about a second.
     */
    static final int MAX_BACKOFF_SHIFT = 6;

    private static final VarHandle ARMED;
    private static final VarHandle STARTING;
    /** A worker's {@code blockingDepth}, written plainly by its owner; read here as a hint. */
    private static final VarHandle BLOCKING_DEPTH;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ARMED = l.findVarHandle(StarvationWatch.class, "armed", boolean.class);
            STARTING = l.findVarHandle(StarvationWatch.class, "starting", boolean.class);
            BLOCKING_DEPTH = l.findVarHandle(WorkerHotFields.class, "blockingDepth", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * How long the watch thread parks with no pool armed before it looks for terminated pools to
     * drop, and how long it waits with no pool registered before it exits (the next pool built
     * starts another): a thread that waited for good would keep this library's class loader, and
     * with it every class it loaded, reachable after every pool had terminated. Long enough that
     * a program that builds a pool now and then does not pay a thread start each time.
     */
    static final long IDLE_EXIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** Guards the writes of {@link #registered} and {@link #thread}. */
    private static final ReentrantLock LOCK = new ReentrantLock();
    /** The watches of the pools built and not yet terminated; copied on write under {@link #LOCK}. */
    private static volatile StarvationWatch[] registered = new StarvationWatch[0];
    /** The watch thread, while one runs; written under {@link #LOCK}, read by arming workers to unpark it. */
    private static volatile Thread thread;
    /** Run by the watch thread just before it reads the registered pools, if set: a seam for tests. */
    static volatile Runnable beforeCopy;
    /** Run by an arming worker just after it marked its pool armed, if set: a seam for tests. */
    static volatile Runnable beforeArm;
    /** Run by the watch thread as it begins a pass with no pool armed, if set: a seam for tests. */
    static volatile Runnable beforeIdlePass;

    private final WorkStealingPool pool;
    private final Shared shared;
    /** Whether the watch looks at this pool at each interval. */
    @SuppressWarnings("unused")            // through ARMED
    private volatile boolean armed;
    /** Whether a spare of this pool is being started, off the watch thread (see {@link #startSpare}). */
    @SuppressWarnings("unused")            // through STARTING
    private volatile boolean starting;
    /**
     * Starts in a row that started no spare; written by the starter thread only (one at a time,
     * ordered by {@link #starting}), read by the next starter.
     */
    private int failedStarts;
    /** {@link System#nanoTime} before which no spare start is tried (a back-off after failures). */
    private volatile long nextStartNanos;
    /** Whether the last look at this pool threw (reported then, see {@link #lookFailedWith}). Watch thread only. */
    private boolean lookFailed;
    /** Each worker's progress at the last look ({@link Long#MIN_VALUE}: not seen). Watch thread only. */
    private long[] seen = new long[0];

    StarvationWatch(WorkStealingPool pool, Shared shared) {
        this.pool = pool;
        this.shared = shared;
        this.nextStartNanos = System.nanoTime();   // not 0: nanoTime may be negative
    }

    /** A worker begins a round: arms the watch if no core worker of the pool is parked. */
    void roundBegins() {
        if (!(boolean) ARMED.getVolatile(this) && shared.idle.parkedCoreCount() == 0) {
            arm();
        }
    }

    private void arm() {
        if (!ARMED.compareAndSet(this, false, true)) {
            return;
        }
        try {
            Runnable hook = beforeArm;
            if (hook != null) {
                hook.run();
            }
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        } catch (Throwable e) {
            // the flag stands: the watch reads every registered pool's flag when it next wakes
            // (at the latest after IDLE_EXIT_NANOS), unparked or not. Undone here, the flag left
            // the pool to a later round, and a round that ran a task waiting for work queued
            // behind it never ended (see "Why an arming cannot fail")
        }
    }

    /**
     * Puts this pool among those the watch reads, and starts the watch thread if none runs; the
     * pool's constructor calls it once its workers have started, and fails the build if it
     * throws (see "Why an arming cannot fail").
     */
    void register() {
        LOCK.lock();
        try {
            StarvationWatch[] rs = registered;
            StarvationWatch[] more = Arrays.copyOf(rs, rs.length + 1);
            more[rs.length] = this;
            if (thread == null) {
                Thread t = new Thread(null, StarvationWatch::watchLoop, "spindle-starvation-watch", 0, false);
                t.setDaemon(true);
                t.setContextClassLoader(null);
                t.start();
                thread = t;
            }
            registered = more;
        } finally {
            LOCK.unlock();
        }
        if ((boolean) ARMED.getVolatile(this)) {
            LockSupport.unpark(thread);        // armed by a worker before the thread ran
        }
    }

    /**
     * Drops this pool from the registered pools once it has terminated; never throws. If the
     * removal fails (no memory for the copy), the watch's next idle pass drops it.
     */
    void poolTerminated() {
        ARMED.setVolatile(this, false);
        try {
            unregister(this);
        } catch (Throwable e) {
            // left to the watch's idle pass (pruneTerminated)
        }
    }

    private static void unregister(StarvationWatch w) {
        LOCK.lock();
        try {
            StarvationWatch[] rs = registered;
            for (int i = 0; i < rs.length; i++) {
                if (rs[i] == w) {
                    StarvationWatch[] less = new StarvationWatch[rs.length - 1];
                    System.arraycopy(rs, 0, less, 0, i);
                    System.arraycopy(rs, i + 1, less, i, rs.length - i - 1);
                    registered = less;
                    return;
                }
            }
        } finally {
            LOCK.unlock();
        }
    }

    /** Whether {@code pool} is armed now (for tests). */
    static boolean isWatched(WorkStealingPool pool) {
        for (StarvationWatch w : registered) {
            if (w.pool == pool) {
                return (boolean) ARMED.getVolatile(w);
            }
        }
        return false;
    }

    private static void watchLoop() {
        boolean noneRegistered = false;         // at the previous idle pass
        for (;;) {
            StarvationWatch[] pools;
            try {
                Runnable hook = beforeCopy;
                if (hook != null) {
                    hook.run();
                }
                pools = registered;
            } catch (Throwable e) {
                // caught as a failed look is (below), for the same reason: thrown out of here it
                // ended this thread, still recorded as the watch, and no pool in the JVM was
                // relieved again. No pool is looked at this interval; the next reads again
                LockSupport.parkNanos(StarvationWatch.class, INTERVAL_NANOS);
                continue;
            }
            if (!anyArmed(pools)) {
                try {
                    Runnable hook = beforeIdlePass;
                    if (hook != null) {
                        hook.run();
                    }
                    if (pools.length == 0 && noneRegistered && exitIfNoneRegistered()) {
                        return;
                    }
                } catch (Throwable e) {
                    // caught as a failed look is (below): the exit test takes the registration
                    // lock, whose wait can fail for want of memory, and thrown out of here it
                    // ended this thread, still recorded as the watch, so no pool built later
                    // started another and no pool in the JVM was relieved again. It stays, woken
                    // as after any idle pass, and the next idle pass tests again
                    noneRegistered = false;
                    LockSupport.parkNanos(StarvationWatch.class, IDLE_EXIT_NANOS);
                    continue;
                }
                noneRegistered = pools.length == 0;
                pruneTerminated(pools);
                // woken by the next arming (its unpark), or after the idle period
                LockSupport.parkNanos(StarvationWatch.class, IDLE_EXIT_NANOS);
                continue;
            }
            noneRegistered = false;
            LockSupport.parkNanos(StarvationWatch.class, INTERVAL_NANOS);
            for (StarvationWatch w : pools) {
                if (!(boolean) ARMED.getVolatile(w)) {
                    continue;
                }
                try {
                    if (!w.look()) {
                        w.disarm();
                    }
                    w.lookFailed = false;
                } catch (Throwable e) {
                    // an error in one look (an OutOfMemoryError, a worker thread of the user's
                    // factory whose getState throws) must not end this thread, which serves
                    // every pool in the JVM: ended, it was still recorded as the watch, so no
                    // other started and no pool was relieved again. The pool stays armed: the
                    // next look tries again
                    w.lookFailedWith(e);
                }
            }
        }
    }

    private static boolean anyArmed(StarvationWatch[] pools) {
        for (StarvationWatch w : pools) {
            if ((boolean) ARMED.getVolatile(w)) {
                return true;
            }
        }
        return false;
    }

    /** Ends the watch thread if no pool is registered, under the lock a registration takes. */
    private static boolean exitIfNoneRegistered() {
        LOCK.lock();
        try {
            if (registered.length != 0) {
                return false;
            }
            thread = null;                     // under the lock: the next register() starts another
            return true;
        } finally {
            LOCK.unlock();
        }
    }

    /** Drops the pools that terminated but are still registered (their own removal failed). */
    private static void pruneTerminated(StarvationWatch[] pools) {
        for (StarvationWatch w : pools) {
            if (w.pool.isTerminated()) {
                try {
                    unregister(w);
                } catch (Throwable e) {
                    // no memory for the copy: the next idle pass tries again
                }
            }
        }
    }

    /**
     * Reports an error thrown by a look at this pool to the pool's uncaught-exception handler, as
     * the pool reports its other failures; never throws. Dropped silently, a pool whose looks kept
     * failing was never relieved and nobody was told why. Only the first of a run of failed looks
     * is reported: a look that fails for good would otherwise call the handler every interval.
     */
    private void lookFailedWith(Throwable e) {
        if (!lookFailed) {
            lookFailed = true;
            try {
                pool.reportFailure(Thread.currentThread(), e);
            } catch (Throwable ignored) {
                // reportFailure does not throw, but an OutOfMemoryError may still come from here
            }
        }
    }

    /** Stops looking at this pool; re-arms it if no core worker is parked after all. */
    private void disarm() {
        ARMED.setVolatile(this, false);
        if (!pool.isTerminated() && !pool.isStopping()) {
            roundBegins();
        }
    }

    /**
     * One look at the pool: starts a spare if it starves.
     *
     * @return whether to go on watching (no core worker parked, the pool not stopping)
     */
    private boolean look() {
        if (pool.isStopping() || pool.isTerminated() || shared.idle.parkedCoreCount() > 0) {
            return false;
        }
        Worker[] ws = shared.workers;
        if (seen.length < ws.length) {
            int from = seen.length;
            seen = Arrays.copyOf(seen, ws.length);
            Arrays.fill(seen, from, ws.length, Long.MIN_VALUE);
        }
        boolean allWaiting = true;
        int waitingUnseen = 0;
        for (int i = 0, n = shared.slotsInUse(); i < n; i++) {
            Worker w = ws[i];
            if (w == null || !w.alive || shared.idle.isParked(i)) {
                // a parked spare runs nothing; it counts as progress at the next look if it
                // wakes meanwhile, as a new spare does
                seen[i] = Long.MIN_VALUE;
                continue;
            }
            long p = w.progress();
            if (p != seen[i]) {
                seen[i] = p;
                allWaiting = false;
                continue;
            }
            if ((int) BLOCKING_DEPTH.getOpaque(w) != 0) {
                continue;                      // compensated for already: see the class overview
            }
            Thread t = w.thread;
            if (t == null || t.getState() != Thread.State.WAITING) {
                allWaiting = false;
            } else {
                waitingUnseen++;
            }
        }
        if (allWaiting && waitingUnseen > 0 && shared.hasAnyTask() && !shared.idle.wakeParkedSpare()) {
            startSpare();                      // no spare parked to wake: see the class overview
        }
        return true;
    }

    /**
     * Starts a spare for this pool on a thread of its own, unless one is being started already
     * (see "One pool cannot stall the others" in the class overview). Watch thread only.
     */
    private void startSpare() {
        if (System.nanoTime() - nextStartNanos < 0L) {
            return;                            // backing off after starts that failed
        }
        if (!STARTING.compareAndSet(this, false, true)) {
            return;                            // the last start is still in the pool's factory
        }
        try {
            Thread t = new Thread(null, () -> {
                boolean started = false;
                try {
                    started = shared.spares.addSpareForStarvation();
                } finally {
                    startEnded(started);
                }
            }, "spindle-starvation-spare-start", 0, false);
            t.setDaemon(true);
            // the pool's loader, not null: a thread factory of the user's makes the spare on this
            // thread, and its threads take the loader of the thread that asks (the JDK's do)
            t.setContextClassLoader(pool.contextClassLoader());
            t.start();
        } catch (Throwable e) {
            // no thread to be had (OutOfMemoryError from the constructor or from start, an
            // InternalError): a later look tries again, after the back-off. Caught whatever it
            // is: an error thrown out of here would end the watch thread, which serves every pool
            // in the JVM, and leave this pool's start flag set for good.
            startEnded(false);
        }
    }

    /**
     * Ends a start begun by {@link #startSpare}: sets the back-off (see "One pool cannot stall
     * the others" in the class overview) and lets the next start begin.
     */
    private void startEnded(boolean started) {
        if (started) {
            failedStarts = 0;
            nextStartNanos = System.nanoTime();
        } else {
            int shift = Math.min(failedStarts, MAX_BACKOFF_SHIFT);
            failedStarts = shift + 1;
            nextStartNanos = System.nanoTime() + (INTERVAL_NANOS << shift);
        }
        STARTING.setVolatile(this, false);
    }
}
