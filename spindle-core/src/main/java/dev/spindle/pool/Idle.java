/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Which workers are searching for work and which are parked, and the protocol that wakes them.
 *
 * <h2>The protocol</h2>
 *
 * <p>A worker is in one of three conditions: <em>running</em> (it has a task), <em>searching</em>
 * (it found nothing locally and is stealing), or <em>parked</em>. One atomic word counts the
 * searching and the parked workers; the parked workers themselves sit on a stack guarded by a
 * lock that is taken only on the slow paths (parking, and waking a parked worker).
 *
 * <ul>
 *   <li><b>Waking.</b> Whoever makes work visible calls {@link #notifyWork()}. If some worker is
 *       searching, it will find the work, so nobody is woken; if nobody is parked there is
 *       nobody to wake. Otherwise the most recently parked worker is popped and woken, and it
 *       is counted as searching <em>before</em> it runs, so a burst of submissions wakes one
 *       worker, not all of them.</li>
 *   <li><b>Searching.</b> At most half the workers (rounded up, at least one) search at once
 *       ({@link #tryStartSearching}); the others park straight away. A searcher that finds work
 *       stops searching, and if it was the last searcher and more work is visible, it wakes
 *       another.</li>
 *   <li><b>Parking.</b> A worker parks only after it searched itself, or while another worker
 *       is searching. A worker that finds nobody searching once it is registered as parked
 *       must look at every queue once more; if it sees work it calls {@link #notifyWork()}
 *       (which may wake itself).</li>
 * </ul>
 *
 * <p><b>Why no wake-up is lost.</b> A submitter publishes its task (a volatile write in the
 * queue) and then reads the state word; a parking searcher updates the state word (a CAS, under
 * the lock) and then reads the queues. Volatile accesses are sequentially consistent, so one of
 * the two sees the other. Either the submitter sees a searcher (who, if it is the last to park,
 * re-checks the queues after that point and sees the task) or it sees no searcher and at least
 * one parked worker and wakes it; or the parking worker's re-check sees the task. A searcher
 * leaves the searching count in one of three ways: it parks (and re-checks if it was the last),
 * it found work (and wakes another if it was the last, then returns to its loop), or it is a
 * spare worker retiring (it wakes another if it was the last, then exits). In the last case the
 * worker it would have woken may not be registered yet; that worker, finding nobody searching
 * when it registers, re-checks instead. The Promela model in {@code spindle-stress/model} checks
 * this argument step by step, retiring spares included ({@code -DSPARE_RETIRES}), and finds the
 * lost wake-up when any of these re-checks is removed.
 *
 * <p>Local pushes by a worker use a cheaper, unfenced check ({@link #notifyWorkRacy()}): if it
 * misses, the pushing worker still runs the task itself, so a task is never lost, only a chance
 * of parallelism, and the next push checks again.
 */
final class Idle implements IdleControl {

    private static final int FIELD_BITS = 21;
    private static final long FIELD_MASK = (1L << FIELD_BITS) - 1;
    private static final long SEARCHING_ONE = 1L;
    private static final long PARKED_ONE = 1L << FIELD_BITS;
    private static final long PARKED_SPARE_ONE = 1L << (2 * FIELD_BITS);
    /** Upper bound on workers, so that no field of {@link #state} overflows into the next. */
    static final int MAX_WORKERS = (int) FIELD_MASK;

    /**
     * Three counts of 21 bits each, read and changed together: searching workers (bits 0-20),
     * parked workers (bits 21-41) and, of those, parked spare workers (bits 42-62). The spare
     * count lets {@link #notifyWork()} see without the lock that the only parked workers are
     * spares the pool does not need, which it would not wake anyway.
     */
    private final AtomicLong state = new AtomicLong();

    private final Object lock = new Object();
    /** Stack of parked workers; guarded by {@link #lock}. */
    private Worker[] parked;
    private int parkedCount;
    private boolean terminated;

    /** Live workers not inside a blocking section (parked ones included). */
    private final java.util.function.IntSupplier unblockedLive;
    /** The number of workers meant to run at once. */
    private final int parallelism;

    Idle(int capacity, int parallelism, java.util.function.IntSupplier unblockedLive) {
        if (capacity > MAX_WORKERS) {
            throw new IllegalArgumentException("at most " + MAX_WORKERS + " workers, was " + capacity);
        }
        parked = new Worker[Math.max(4, capacity)];
        this.parallelism = parallelism;
        this.unblockedLive = unblockedLive;
    }

    /**
     * Whether a parked spare may be woken while {@code parkedCount} workers are parked: only if
     * fewer than {@link #parallelism} workers are awake and not blocked. Otherwise waking it
     * would put more threads than cores to work, and it is left to retire. Parked workers must
     * be subtracted: a spare parked earlier counts as live, so the count of live workers alone
     * said "enough" while a core worker waited in a join, and with nobody woken the pool ran
     * on one core.
     */
    private boolean spareWanted(int parkedCount) {
        return unblockedLive.getAsInt() - parkedCount < parallelism;
    }

    static int searching(long s) {
        return (int) (s & FIELD_MASK);
    }

    static int parked(long s) {
        return (int) ((s >>> FIELD_BITS) & FIELD_MASK);
    }

    static int parkedSpares(long s) {
        return (int) (s >>> (2 * FIELD_BITS));
    }

    private static long parkedDelta(Worker w) {
        return w.spare ? PARKED_ONE + PARKED_SPARE_ONE : PARKED_ONE;
    }

    /**
     * Whether a wake-up is worth the lock: nobody searches, and some parked worker is one that
     * {@link #wakeOne()} would wake: a core worker, or a spare that is {@linkplain #spareWanted
     * wanted}. Without the spare test, a lingering spare made every local push of a busy pool
     * take the lock only to find nobody to wake.
     */
    private boolean worthWaking(long s) {
        int p = parked(s);
        return searching(s) == 0 && p != 0 && (p != parkedSpares(s) || spareWanted(p));
    }

    /**
     * Counts the caller as searching unless half the live workers already are.
     *
     * @return whether the caller is now searching
     */
    boolean tryStartSearching(int liveWorkers) {
        for (;;) {
            long s = state.get();
            if (2 * searching(s) >= Math.max(1, liveWorkers)) {
                return false;
            }
            if (state.compareAndSet(s, s + SEARCHING_ONE)) {
                return true;
            }
        }
    }

    /**
     * Uncounts a searcher (one that found work, or a spare that retires).
     *
     * @return whether it was the last searcher; the caller must then look at the queues and
     *     call {@link #notifyWork()} if work is still visible. Looking <em>after</em> the
     *     decrement is what keeps this free of lost wake-ups: a submitter that published its
     *     task before the look is seen by it, and one that publishes after it sees nobody
     *     searching and wakes a parked worker itself. Not waking anyone when the task just found
     *     was the only one matters: the wake-up is a system call, and it would otherwise sit
     *     between a woken worker and the task it was woken for.
     */
    boolean stopSearching() {
        long s = state.addAndGet(-SEARCHING_ONE);
        return searching(s) == 0;
    }

    /** Wakes one parked worker if work may be waiting and nobody is searching for it. */
    void notifyWork() {
        if (worthWaking(state.get())) {
            wakeOne();
        }
    }

    /** As {@link #notifyWork()}, for callers that may skip the wake-up if they race (see above). */
    void notifyWorkRacy() {
        if (worthWaking(state.getPlain())) {
            wakeOne();
        }
    }

    private void wakeOne() {
        Worker w;
        synchronized (lock) {
            long s = state.get();
            if (searching(s) != 0 || parkedCount == 0 || terminated) {
                return;
            }
            // The most recently parked core worker (its cache is warmest); a spare only when no
            // core worker is parked and the spare is wanted. Waking a spare while a core worker
            // sleeps would leave more threads than cores busy once that worker is woken too,
            // and a spare the pool does not need is left parked to retire.
            int i = parkedCount - 1;
            while (i >= 0 && parked[i].spare) {
                i--;
            }
            if (i < 0) {
                if (!spareWanted(parkedCount)) {
                    return;
                }
                i = parkedCount - 1;
            }
            w = parked[i];
            System.arraycopy(parked, i + 1, parked, i, parkedCount - i - 1);
            parked[--parkedCount] = null;
            state.addAndGet(SEARCHING_ONE - parkedDelta(w));
            w.notified = true;
        }
        LockSupport.unpark(w.thread);
    }

    /**
     * Registers {@code w} as parked (uncounting it as a searcher if it was one).
     *
     * @return {@code true} if nobody is searching now that {@code w} is registered, in which
     *     case it must re-check every queue and call {@link #notifyWork()} if it sees work. This
     *     holds whether or not {@code w} itself was searching: the searcher it relied on may
     *     have left without parking (a spare worker retiring), so "the last searcher re-checks"
     *     alone is not enough.
     */
    boolean prepareToPark(Worker w, boolean wasSearching) {
        synchronized (lock) {
            if (parkedCount == parked.length) {
                parked = java.util.Arrays.copyOf(parked, parked.length * 2);
            }
            w.notified = false;
            parked[parkedCount++] = w;
            long delta = parkedDelta(w) - (wasSearching ? SEARCHING_ONE : 0);
            long s = state.addAndGet(delta);
            return searching(s) == 0;
        }
    }

    /**
     * Takes {@code w} off the parked stack if nobody woke it meanwhile.
     *
     * @return {@code true} if it was removed (it is neither parked nor searching now);
     *     {@code false} if it had already been woken (and is counted as searching)
     */
    boolean cancelPark(Worker w) {
        synchronized (lock) {
            for (int i = parkedCount - 1; i >= 0; i--) {
                if (parked[i] == w) {
                    System.arraycopy(parked, i + 1, parked, i, parkedCount - i - 1);
                    parked[--parkedCount] = null;
                    state.addAndGet(-parkedDelta(w));
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Runs {@code check} under the lock with the number of parked workers; used for the
     * quiescence test of a graceful shutdown, which must not race with workers parking.
     */
    @Override
    public boolean underLock(java.util.function.IntPredicate check) {
        synchronized (lock) {
            return check.test(parkedCount);
        }
    }

    /** Wakes every parked worker for good; later {@link #notifyWork()} calls do nothing. */
    @Override
    public void terminate() {
        Worker[] toWake;
        int n;
        synchronized (lock) {
            terminated = true;
            toWake = parked.clone();
            n = parkedCount;
            for (int i = 0; i < n; i++) {
                toWake[i].notified = true;
            }
        }
        for (int i = 0; i < n; i++) {
            LockSupport.unpark(toWake[i].thread);
        }
    }

    @Override
    public boolean isTerminated() {
        synchronized (lock) {
            return terminated;
        }
    }
}
