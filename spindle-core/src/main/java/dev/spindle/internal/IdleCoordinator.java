/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;

/**
 * The one idle protocol of every pool: which workers are searching for work and which are
 * parked, and who is woken when work appears. It knows workers by index only; how a worker
 * actually sleeps and is woken is a {@link Parker}'s business. Used by {@code WorkStealingPool}
 * (with spare workers), by {@code WorkSharingPool}, {@code PriorityPool} and {@code PinnedPool}
 * (without), and by spindle-async's {@code AsyncRuntime} (without spares, waking the last poller
 * of a task first: {@link #notifyWork(int)}). Not part of the public API: the package is exported
 * only to Spindle's own modules.
 *
 * <h2>The protocol</h2>
 *
 * <p>A worker is in one of three conditions: <em>running</em> (it has a task), <em>searching</em>
 * (it found nothing of its own and looks at what others may hold), or <em>parked</em>. One atomic
 * word counts the searching workers, the parked workers, and of those the parked spares; the
 * parked workers' indices sit on a stack guarded by a lock that is taken only on the slow paths
 * (parking, cancelling, waking). Submitters read the word without the lock, so "someone is
 * already searching" or "nobody is parked" costs one volatile read.
 *
 * <ul>
 *   <li><b>Waking any worker.</b> Whoever makes work visible that any worker may run calls
 *       {@link #notifyWork()}. If some worker is searching, it will find the work, so nobody is
 *       woken; if nobody is parked there is nobody to wake. Otherwise the most recently parked
 *       core worker (warmest cache) is popped and woken (for a thread outside the pool, the one
 *       at the bottom of the stack: {@link #notifyWorkFromOutside}), and it is counted as searching
 *       <em>before</em> it runs, so a burst of submissions wakes one worker, not all of them.</li>
 *   <li><b>Waking one given worker</b> ({@link #wake}, for tasks only that worker may run, as
 *       in the pinned pool): a volatile read of its parked flag, and only if set, the lock,
 *       removal from the stack and an unpark. Such a worker is not counted as searching.</li>
 *   <li><b>Searching.</b> Pools whose workers steal throttle searchers: at most half the live
 *       workers (at least one) search at once ({@link #tryStartSearching}); the others park
 *       straight away. A searcher that finds work stops searching ({@link #stopSearching}), and
 *       if it was the last searcher and more work is visible, it wakes another.</li>
 *   <li><b>Parking.</b> A worker parks only after it searched itself, or while another worker
 *       searches. One that finds nobody searching once it is registered as parked
 *       ({@link #prepareToPark}) must look at every queue it may take from once more; if it
 *       sees work it cancels ({@link #cancelPark}) or calls {@link #notifyWork()} (which may
 *       wake itself). Only then does it sleep ({@link #await}) until its notified flag is set.</li>
 *   <li><b>Spare workers</b> (optional: indices from {@code cores} on). The word counts parked
 *       spares too. When the only parked workers are spares the pool does not need (fewer than
 *       {@code cores} workers awake and unblocked is what "needed" means), {@code notifyWork}
 *       returns without the lock: it would wake nobody. A core worker is always woken before a
 *       spare. (The work-stealing pool's starvation watch wakes a parked spare that is not
 *       wanted, {@link #wakeParkedSpare}, when no core worker is parked and every awake worker
 *       waits where the pool cannot see it.)</li>
 * </ul>
 *
 * <h2>Why no wake-up is lost</h2>
 *
 * <p>This is the argument the Promela model {@code spindle-stress/model/park.pml} checks step
 * by step (safety and liveness, retiring spares included; its mutants show that removing any
 * re-check below loses a wake-up). Other documents link here rather than repeat it.
 *
 * <p>A submitter publishes its task (a volatile write in the queue) and then reads the state
 * word; a parking worker updates the state word (a read-modify-write, under the lock) and then
 * reads the queues. Volatile accesses are sequentially consistent, so one of the two sees the
 * other. Either the submitter sees nobody searching and someone parked, and wakes them; or the
 * worker's re-check sees the task; or the submitter sees a searcher and relies on it. A
 * searcher leaves the searching count in one of three ways, and each looks at the queues after
 * leaving: it parks (and, finding nobody searching, re-checks); it found work (and, if it was
 * the last searcher, looks and wakes another if work remains, then returns to its loop, where
 * it will look again before it parks); or it is a spare worker retiring (it wakes another if it
 * was the last). In the last case the worker it would wake may not be registered yet; that
 * worker, finding nobody searching when it registers, re-checks instead. That is why the rule
 * is "every worker that finds nobody searching re-checks", not "the last searcher re-checks":
 * the weaker rule lost a wake-up when a spare retired (the model found it; it is kept there as
 * the mutant {@code MUTANT_LAST_SEARCHER_ONLY}). A targeted {@link #wake} follows the same
 * argument with the target's parked flag in place of the state word.
 *
 * <p>A worker of an async runtime that drives I/O while parked ({@code DrivingParker}) may find
 * work by itself: {@link #wakeSelf} takes it off the stack and counts it as searching, just as
 * {@link #notifyWork} would have, so the argument is unchanged: it is a searcher that will look
 * at the queues (its own first) before it parks again. The model {@code async_park.pml
 * -DSELECTOR} checks that case.
 *
 * <p>A wake-up delivered before the sleep is not lost either: a parker's unpark before its park
 * makes that park return, and {@link #await} loops on the notified flag, so spurious returns are
 * harmless. {@link #notifyWorkRacy()} reads the word without a fence, for a worker's pushes to
 * its own queue: if it misses, the pushing worker still runs the task itself, so a task is never
 * lost, only a chance of parallelism, and its next push checks again.
 *
 * <h2>Termination</h2>
 *
 * <p>{@link #terminate()} marks the protocol finished and wakes every registered worker;
 * {@link #await} returns {@code false} from then on, and nobody is woken any more. The pools call
 * it when a graceful shutdown finds the pool quiet (checked with {@link #underLock}, so no worker
 * can park or be woken during the check) and from {@code shutdownNow}.
 */
public final class IdleCoordinator extends IdleCoordinatorState implements IdleControl {

    private static final int FIELD_BITS = 21;
    private static final long FIELD_MASK = (1L << FIELD_BITS) - 1;
    private static final long SEARCHING_ONE = 1L;
    private static final long PARKED_ONE = 1L << FIELD_BITS;
    private static final long PARKED_SPARE_ONE = 1L << (2 * FIELD_BITS);
    /** Upper bound on workers, so that no field of the state word overflows into the next. */
    static final int MAX_WORKERS = (int) FIELD_MASK;

    private static final VarHandle STATE;
    private static final VarHandle BLOCKED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(IdleCoordinatorStateField.class, "state", long.class);
            BLOCKED = l.findVarHandle(IdleCoordinatorStateField.class, "blocked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Parker parker;
    /** Indices from this one on are spare workers. */
    private final int cores;
    /** Workers that may run tasks, parked and blocked ones included (see the constructor). */
    private final IntSupplier liveWorkers;
    /** Called by a worker before each sleep (the pool's rule for stray interrupts). */
    private final Runnable beforeSleep;

    private final Object lock = new Object();
    /** Indices of parked workers, most recent last; guarded by {@link #lock}. */
    private final int[] stack;
    /** Guarded by {@link #lock}. */
    private int size;
    /** Per worker: registered on the stack. Written under the lock, read without it. */
    private final AtomicIntegerArray parked;
    /** Per worker: set by whoever takes it off the stack to wake it. */
    private final AtomicIntegerArray notified;
    private volatile boolean terminated;
    /** Workers woken by {@link #wakeOne}; guarded by {@link #lock}. */
    private long wakes;

    /**
     * A coordinator for {@code workers} workers, all core workers (no spares).
     *
     * @param beforeSleep run by a worker before each sleep
     */
    public IdleCoordinator(int workers, Parker parker, Runnable beforeSleep) {
        this(workers, workers, () -> workers, parker, beforeSleep);
    }

    /**
     * A coordinator for {@code capacity} worker slots, of which indices from {@code cores} on are
     * spare workers, needed only while fewer than {@code cores} workers are awake and outside
     * blocking sections ({@code liveWorkers}, minus the parked ones, minus those that
     * {@linkplain #enterBlocking entered a blocking section}).
     *
     * @param liveWorkers workers that may run tasks: every core worker, always, and each spare
     *     from before it first parks until after it last leaves the parked stack (so the parked
     *     spares never outnumber the live ones; {@link #notifyWorkRacy} relies on it)
     */
    public IdleCoordinator(int capacity, int cores, IntSupplier liveWorkers, Parker parker, Runnable beforeSleep) {
        if (capacity > MAX_WORKERS) {
            throw new IllegalArgumentException("at most " + MAX_WORKERS + " workers, was " + capacity);
        }
        this.stack = new int[capacity];
        this.parked = new AtomicIntegerArray(capacity);
        this.notified = new AtomicIntegerArray(capacity);
        this.cores = cores;
        this.liveWorkers = liveWorkers;
        this.parker = parker;
        this.beforeSleep = beforeSleep;
    }

    private static int searching(long s) {
        return (int) (s & FIELD_MASK);
    }

    private static int parked(long s) {
        return (int) ((s >>> FIELD_BITS) & FIELD_MASK);
    }

    private static int parkedSpares(long s) {
        return (int) (s >>> (2 * FIELD_BITS));
    }

    private boolean isSpare(int worker) {
        return worker >= cores;
    }

    private long parkedDelta(int worker) {
        return isSpare(worker) ? PARKED_ONE + PARKED_SPARE_ONE : PARKED_ONE;
    }

    private long addState(long delta) {
        return (long) STATE.getAndAdd(this, delta) + delta;
    }

    /**
     * Whether a parked spare may be woken while {@code parkedCount} workers are parked: only if
     * fewer than {@code cores} workers are awake and not blocked. Otherwise waking it would put
     * more threads than cores to work, and it is left to retire. Parked workers must be
     * subtracted: a spare parked earlier counts as live, so the count of live workers alone
     * said "enough" while a core worker waited in a join, and with nobody woken the pool ran
     * on one core.
     */
    private boolean spareWanted(int parkedCount) {
        return liveWorkers.getAsInt() - blocked - parkedCount < cores;
    }

    /**
     * A worker enters a blocking section: it stops taking tasks for a while, so a parked spare
     * may be wanted in its place (see {@link #spareWanted}).
     *
     * @return the number of workers inside blocking sections now, this one included
     */
    public int enterBlocking() {
        return (int) BLOCKED.getAndAdd(this, 1) + 1;
    }

    /** A worker leaves its blocking section. */
    public void exitBlocking() {
        BLOCKED.getAndAdd(this, -1);
    }

    /** {@return the number of workers inside blocking sections} */
    public int blocked() {
        return blocked;
    }

    /**
     * Whether a wake-up is worth the lock: nobody searches, and some parked worker is one that
     * {@link #wakeOne()} would wake: a core worker, or a spare that is {@linkplain #spareWanted
     * wanted}. Without the spare test, a lingering spare made every local push of a busy pool
     * take the lock only to find nobody to wake.
     *
     * <p>A spare can be wanted only while some worker is blocked: with none blocked, the live
     * workers less the parked ones are at least the core workers, since every core worker is
     * live and each parked spare is a live spare (the constructor's contract). So the spare test
     * reads {@code blocked}, beside the state word on the same cache line, before it asks for
     * the live count. That keeps the supplier's call and its loads off every fork of a busy pool
     * that has a lingering spare, which is the usual state after the first compensated join (on
     * 2 workers of fib they cost about 5 % of the CPU; docs/BENCHMARKS.md, session 15).
     */
    private boolean worthWaking(long s) {
        int p = parked(s);
        return searching(s) == 0 && p != 0 && (p != parkedSpares(s) || (blocked != 0 && spareWanted(p)));
    }

    /**
     * Counts the caller as searching unless half the live workers already are.
     *
     * @return whether the caller is now searching
     */
    public boolean tryStartSearching(int liveWorkers) {
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            if (2 * searching(s) >= Math.max(1, liveWorkers)) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s + SEARCHING_ONE)) {
                return true;
            }
        }
    }

    /**
     * Uncounts a searcher (one that found work, or a spare that retires).
     *
     * @return whether it was the last searcher; the caller must then look at the queues and
     *     call {@link #notifyWork()} if work is still visible. Looking <em>after</em> the
     *     decrement is what keeps this free of lost wake-ups (see the class overview). Not
     *     waking anyone when the task just found was the only one matters: the wake-up is a
     *     system call, and it would otherwise sit between a woken worker and its task.
     */
    public boolean stopSearching() {
        return searching(addState(-SEARCHING_ONE)) == 0;
    }

    /** Wakes one parked worker if work may be waiting and nobody is searching for it. */
    public void notifyWork() {
        notifyWork(-1);
    }

    /**
     * As {@link #notifyWork()}, waking core worker {@code preferred} if it is the one parked (the
     * last poller of a woken async task, whose cache holds the task); {@code -1} for no preference.
     */
    public void notifyWork(int preferred) {
        if (worthWaking((long) STATE.getVolatile(this))) {
            wakeOne(preferred);
        }
    }

    /**
     * As {@link #notifyWork()}, for a thread outside the pool: wakes the core worker at the
     * bottom of the stack, the one parked longest or the watcher {@link #sinkParked} put there,
     * where {@code notifyWork} wakes the most recently parked. A thread that submits a task and
     * waits for its result, again and again, is woken each time by the worker that ran its task,
     * which then parks on top of the stack: woken by the next submission, that worker was
     * often the slowest to get going (docs/BENCHMARKS.md, session 68: a synchronous round trip
     * from outside, 2 workers, 25.5 µs this way and 18.0 µs from the bottom, median of 6 JVMs
     * each). Inside the pool the most recently parked stays the choice: waking from the bottom
     * for every wake-up cost the async runtime's spawn_many a fifth. Which parked worker a
     * wake-up picks is not part of the protocol's argument, so this changes no guarantee.
     */
    public void notifyWorkFromOutside() {
        if (worthWaking((long) STATE.getVolatile(this))) {
            wakeOne(FROM_THE_BOTTOM);
        }
    }

    /** {@link #wakeOne}'s choice for {@link #notifyWorkFromOutside}. */
    private static final int FROM_THE_BOTTOM = -2;

    /** As {@link #notifyWork()}, for callers that may skip the wake-up if they race (see above). */
    public void notifyWorkRacy() {
        if (worthWaking((long) STATE.get(this))) {
            wakeOne(-1);
        }
    }

    private void wakeOne(int preferred) {
        int w;
        synchronized (lock) {
            long s = state;
            if (searching(s) != 0 || size == 0 || terminated) {
                return;
            }
            // The preferred worker if it is parked; for a submitter outside the pool the core
            // worker at the bottom (see notifyWorkFromOutside); else the most recently parked core
            // worker (its cache is warmest); a spare only when no core worker is parked and the
            // spare is wanted. Waking a spare while a core worker sleeps would leave more threads than
            // cores busy once that worker is woken too, and a spare the pool does not need is
            // left parked to retire.
            int i = size - 1;
            if (preferred >= 0 && !isSpare(preferred) && parked.get(preferred) != 0) {
                while (stack[i] != preferred) {
                    i--;
                }
            } else if (preferred == FROM_THE_BOTTOM && (i = lowestParkedCore()) >= 0) {
                // found: a core worker, as below, but from the bottom of the stack
            } else {
                i = size - 1;
                while (i >= 0 && isSpare(stack[i])) {
                    i--;
                }
                if (i < 0) {
                    if (!spareWanted(size)) {
                        return;
                    }
                    i = size - 1;
                }
            }
            w = wakeAt(i);
        }
        parker.unpark(w);
    }

    /** The lowest stack index of a parked core worker, or {@code -1} if none is parked. Lock held. */
    private int lowestParkedCore() {
        for (int i = 0; i < size; i++) {
            if (!isSpare(stack[i])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Takes the parked worker at {@code i} of the stack off it for a wake-up and counts it as
     * searching and notified: the bookkeeping both wakes by choice ({@link #wakeOne},
     * {@link #wakeParkedSpare}) share. Lock held; the caller unparks the returned worker after
     * leaving the lock.
     */
    private int wakeAt(int i) {
        int w = stack[i];
        removeAt(i);
        addState(SEARCHING_ONE - parkedDelta(w));
        parked.set(w, 0);
        notified.set(w, 1);
        wakes++;
        return w;
    }

    /**
     * Wakes the most recently parked spare, whether or not the pool wants one
     * (see {@code spareWanted}), and counts it as searching, as {@link #notifyWork} counts whom it
     * wakes. For the work-stealing pool's starvation watch, which wakes one only when every
     * worker that is not parked has waited, unseen (not in a blocking section, so not counted in
     * {@code blocked}), with tasks queued: {@link #notifyWork} then leaves a parked spare
     * asleep, as no worker counts as blocked, and the spare, if it had nothing to watch when it
     * parked, would sleep out its keep-alive. A wake-up like {@link #notifyWork}'s, of a worker
     * it could have chosen, so the protocol's argument is unchanged.
     *
     * @return whether a spare was parked and is now woken
     */
    public boolean wakeParkedSpare() {
        if (parkedSpares((long) STATE.getVolatile(this)) == 0) {
            return false;
        }
        int w;
        synchronized (lock) {
            if (terminated) {
                return false;
            }
            int i = size - 1;
            while (i >= 0 && !isSpare(stack[i])) {
                i--;
            }
            if (i < 0) {
                return false;
            }
            w = wakeAt(i);
        }
        parker.unpark(w);
        return true;
    }

    /**
     * Moves parked worker {@code w} to the bottom of the parked stack, so that {@link #notifyWork}
     * wakes every other parked worker before it (a submitter outside the pool wakes the bottom
     * first: {@link #notifyWorkFromOutside}); nothing if it is not parked. Which parked worker
     * a wake-up picks is a matter of cache warmth, not of correctness, so this changes no
     * guarantee. For the watcher ({@link WatcherRole}): a watcher woken while another worker is
     * parked nudges that one to take the role over (in the work-stealing pool, if a peer is
     * awake), a second wake-up for one piece of work.
     */
    public void sinkParked(int w) {
        if (parked(state) < 2) {
            // with one worker parked there is no order to change; the count is read without the
            // lock, so a worker parking meanwhile may be missed, which costs at most the nudge
            // above once. A pool's idle worker may take the role each time it parks, and took
            // this lock each time, the lock the running worker's wake-ups take
            return;
        }
        synchronized (lock) {
            if (parked.get(w) == 0 || size < 2) {
                return;
            }
            int i = size - 1;
            while (stack[i] != w) {
                i--;
            }
            System.arraycopy(stack, 0, stack, 1, i);
            stack[0] = w;
        }
    }

    /** How many parked workers {@link #notifyWork} has woken so far (for tests and diagnostics). */
    public long wakes() {
        synchronized (lock) {
            return wakes;
        }
    }

    /** How many workers are parked now. */
    public int parkedCount() {
        return parked((long) STATE.getVolatile(this));
    }

    /**
     * How many workers are counted as searching for work now (a worker woken by
     * {@link #notifyWork} included): a reading for statistics, which takes no part in the protocol.
     */
    public int searchingCount() {
        return searching((long) STATE.getVolatile(this));
    }

    /** Wakes worker {@code w} if it is parked (or registered to park); it is not counted as searching. */
    public void wake(int w) {
        if (parked.get(w) == 0) {
            return;
        }
        synchronized (lock) {
            if (parked.get(w) == 0 || terminated) {
                return;
            }
            remove(w);
            addState(-parkedDelta(w));
            parked.set(w, 0);
            notified.set(w, 1);
        }
        parker.unpark(w);
    }

    /**
     * Worker {@code w}, parked, found work by itself while asleep: an async worker that drives
     * the runtime's I/O and timers while parked found events ready, and is about to queue the
     * woken tasks for itself. Takes it off the stack and counts it as searching, as
     * {@link #notifyWork} counts a worker it wakes (even if others search: it has work already),
     * so that its own wake-ups wake nobody else and {@link #await} returns. Nothing to unpark: it
     * is the caller. Does nothing if it was woken meanwhile, or after {@link #terminate()}.
     */
    public void wakeSelf(int w) {
        synchronized (lock) {
            if (parked.get(w) == 0 || terminated) {
                return;
            }
            remove(w);
            addState(SEARCHING_ONE - parkedDelta(w));
            parked.set(w, 0);
            notified.set(w, 1);
        }
    }

    /**
     * Registers worker {@code w} as parked, uncounting it as a searcher if it was one.
     *
     * @return {@code true} if nobody is searching now that {@code w} is registered, in which
     *     case it must re-check every queue it may take from and {@link #cancelPark} or
     *     {@link #notifyWork()} if it sees work. This holds whether or not {@code w} itself was
     *     searching: the searcher it relied on may have left without parking (a spare worker
     *     retiring), so "the last searcher re-checks" alone is not enough. After
     *     {@link #terminate()} the worker is not registered, and {@link #await} returns at once.
     */
    public boolean prepareToPark(int w, boolean wasSearching) {
        synchronized (lock) {
            if (terminated) {
                notified.set(w, 1);            // not registered: await returns at once
                return false;
            }
            notified.set(w, 0);
            stack[size++] = w;
            parked.set(w, 1);
            long s = addState(parkedDelta(w) - (wasSearching ? SEARCHING_ONE : 0));
            return searching(s) == 0;
        }
    }

    /**
     * Takes {@code w} off the stack if nobody woke it meanwhile.
     *
     * @return {@code true} if it was removed (it is now neither parked nor searching);
     *     {@code false} if a waker got there first (then it is counted as searching if
     *     {@link #notifyWork()} woke it)
     */
    public boolean cancelPark(int w) {
        synchronized (lock) {
            if (parked.get(w) == 0) {
                return false;
            }
            remove(w);
            addState(-parkedDelta(w));
            parked.set(w, 0);
            return true;
        }
    }

    /**
     * How many core workers (not spares) are registered as parked now: a volatile read of the
     * state word, exact at that moment.
     */
    public int parkedCoreCount() {
        long s = (long) STATE.getVolatile(this);
        return parked(s) - parkedSpares(s);
    }

    /** Whether {@code w} is registered as parked now (a racy read, for placement heuristics only). */
    public boolean isParked(int w) {
        return parked.get(w) != 0;
    }

    /** Whether {@code w} has been woken since it last registered. */
    public boolean isNotified(int w) {
        return notified.get(w) != 0;
    }

    /**
     * Sleeps until {@code w} is woken.
     *
     * @return {@code true} if it was woken; {@code false} if the protocol was terminated
     */
    public boolean await(int w) {
        while (notified.get(w) == 0) {
            if (terminated) {
                return false;
            }
            beforeSleep.run();
            parker.park(w);
        }
        return !terminated;
    }

    /**
     * Sleeps at most {@code nanos} (or until woken, or spuriously); the caller checks
     * {@link #isNotified} and decides, for the timed waits of spare and watching workers.
     */
    public void sleepAtMost(int w, long nanos) {
        beforeSleep.run();
        parker.parkNanos(w, nanos);
    }

    /**
     * Sleeps once: until {@code w} is woken, {@linkplain #nudgeParked nudged}, or spuriously. For
     * a parked worker that waits for something besides its wake-up (the async runtime's watcher
     * role); it checks {@link #isNotified} and {@link #isTerminated} after each return, as
     * {@link #await} does.
     */
    public void sleep(int w) {
        beforeSleep.run();
        parker.park(w);
    }

    /**
     * Makes the most recently parked core worker's sleep return without waking it (spares, which
     * never hold a watcher role, are passed over; with no core worker parked nobody is nudged):
     * it stays parked
     * and counted as such, so the protocol sees a spurious return, which it allows (see
     * <i>Why no wake-up is lost</i>). A worker sleeping in {@link #await} sleeps again; one in
     * {@link #sleep} looks again at what else it waits for. The unpark is made outside the lock;
     * if the worker was woken meanwhile, it only makes one later sleep return early. With nobody
     * parked it returns after one volatile read of the state word, without the lock: a caller
     * that wrote something (a volatile write) before this call and a parker that registers (the
     * state word, under the lock) before reading it still see one another.
     *
     * @return whether a core worker was parked
     */
    public boolean nudgeParked() {
        if (parked((long) STATE.getVolatile(this)) == 0) {
            return false;                      // nobody parked: no lock (a leaving worker's usual case)
        }
        int w;
        synchronized (lock) {
            int i = size - 1;
            while (i >= 0 && isSpare(stack[i])) {
                i--;                           // spares never take the watcher role: pass them over
            }
            if (i < 0 || terminated) {
                return false;
            }
            w = stack[i];
        }
        parker.unpark(w);
        return true;
    }

    private void remove(int w) {
        for (int i = size - 1; i >= 0; i--) {
            if (stack[i] == w) {
                removeAt(i);
                return;
            }
        }
        throw new IllegalStateException("worker " + w + " flagged parked but not on the stack");
    }

    private void removeAt(int i) {
        System.arraycopy(stack, i + 1, stack, i, size - i - 1);
        size--;
    }

    /** Runs {@code check} with the number of parked workers, none parking or waking meanwhile. */
    @Override
    public boolean underLock(IntPredicate check) {
        synchronized (lock) {
            return check.test(size);
        }
    }

    /** Wakes every parked worker for good; later {@link #notifyWork()} calls do nothing. */
    @Override
    public void terminate() {
        int[] toWake;
        synchronized (lock) {
            terminated = true;
            toWake = java.util.Arrays.copyOf(stack, size);
            for (int w : toWake) {
                notified.set(w, 1);
            }
        }
        for (int w : toWake) {
            parker.unpark(w);
        }
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }
}

/* Padding: the state word is read by every submitter and written by parking workers. */
abstract class IdleCoordinatorPad0 {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
}

abstract class IdleCoordinatorStateField extends IdleCoordinatorPad0 {
    /** Searching workers (bits 0-20), parked workers (21-41), parked spares (42-62). */
    volatile long state;
    /**
     * Workers inside a blocking section; read beside the state word by every submitter that
     * finds only spares parked, written when a worker enters or leaves a section.
     */
    volatile int blocked;
}

abstract class IdleCoordinatorState extends IdleCoordinatorStateField {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}
