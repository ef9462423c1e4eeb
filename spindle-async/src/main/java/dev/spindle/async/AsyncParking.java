/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Which {@link AsyncWorker}s are searching for work and which are parked, and the protocol that
 * wakes them. It follows the idle protocol of Spindle's work-stealing pool (see
 * {@code docs/ARCHITECTURE.md}, "The idle protocol"), without spare workers.
 *
 * <ul>
 *   <li>One atomic word holds two counts: searching workers (low 32 bits) and parked workers
 *       (high 32 bits). Parked workers sit on a stack guarded by a lock taken only to park and to
 *       wake.</li>
 *   <li><b>Waking.</b> Whoever makes work visible calls {@link #notifyWork}: if a worker is
 *       searching it will find the work, and if nobody is parked there is nobody to wake;
 *       otherwise one parked worker (the preferred one if it is parked, else the most recently
 *       parked) is woken and counted as searching before it runs. A burst of submissions
 *       therefore wakes one worker, not all of them.</li>
 *   <li><b>Searching.</b> At most half the workers (at least one) search at once. A searcher
 *       that finds work stops searching; if it was the last and work is still visible, it wakes
 *       another.</li>
 *   <li><b>Parking.</b> A worker registers as parked ({@link #prepareToPark}); if nobody is
 *       searching afterwards it re-checks every queue and calls {@link #notifyWork} if it sees
 *       work (which may wake itself). Then it sleeps until {@code notified}.</li>
 * </ul>
 *
 * <p><b>No lost wake-ups.</b> A producer publishes its task (a CAS in an injector or wake
 * channel) and then reads the state word; a parking worker changes the state word and then
 * reads the queues. These are volatile accesses, so one of the two sees the other: either the
 * producer sees a searcher (which re-checks when it parks as the last one, or wakes another when
 * it finds work as the last one), or it sees no searcher and a parked worker and wakes it, or
 * the parking worker's re-check sees the task. A worker pushing onto its own queues may use the
 * cheaper {@link #notifyWorkRacy}: if that misses, the pusher runs the task itself.
 */
final class AsyncParking {

    private static final long SEARCHING_ONE = 1L;
    private static final long PARKED_ONE = 1L << 32;

    private final AtomicLong state = new AtomicLong();
    private final Object lock = new Object();
    /** Stack of parked workers; guarded by {@link #lock}. */
    private final AsyncWorker[] parked;
    private int parkedCount;
    private boolean terminated;
    /** Workers woken by {@link #wakeOne}; guarded by {@link #lock}. For tests and diagnostics. */
    private long wakes;

    AsyncParking(int workers) {
        parked = new AsyncWorker[workers];
    }

    static int searching(long s) {
        return (int) s;
    }

    static int parked(long s) {
        return (int) (s >>> 32);
    }

    /** Counts the caller as searching unless half the workers already are. */
    boolean tryStartSearching(int workers) {
        for (;;) {
            long s = state.get();
            if (2 * searching(s) >= Math.max(1, workers)) {
                return false;
            }
            if (state.compareAndSet(s, s + SEARCHING_ONE)) {
                return true;
            }
        }
    }

    /**
     * Uncounts a searcher that found work.
     *
     * @return whether it was the last searcher: the caller must then look at the queues and call
     *     {@link #notifyWork} if work is still visible
     */
    boolean stopSearching() {
        return searching(state.addAndGet(-SEARCHING_ONE)) == 0;
    }

    /** Wakes one parked worker, {@code preferred} if it is parked, when nobody is searching. */
    void notifyWork(AsyncWorker preferred) {
        long s = state.get();
        if (searching(s) == 0 && parked(s) != 0) {
            wakeOne(preferred);
        }
    }

    /** As {@link #notifyWork}, with a plain read, for workers pushing onto their own queues. */
    void notifyWorkRacy() {
        long s = state.getPlain();
        if (searching(s) == 0 && parked(s) != 0) {
            wakeOne(null);
        }
    }

    private void wakeOne(AsyncWorker preferred) {
        AsyncWorker w;
        synchronized (lock) {
            if (searching(state.get()) != 0 || parkedCount == 0 || terminated) {
                return;
            }
            int i = parkedCount - 1;
            if (preferred != null) {
                for (int k = i; k >= 0; k--) {
                    if (parked[k] == preferred) {
                        i = k;
                        break;
                    }
                }
            }
            w = parked[i];
            System.arraycopy(parked, i + 1, parked, i, parkedCount - i - 1);
            parked[--parkedCount] = null;
            state.addAndGet(SEARCHING_ONE - PARKED_ONE);
            wakes++;
            w.notified = true;
        }
        LockSupport.unpark(w.thread);
    }

    /**
     * Registers {@code w} as parked, uncounting it as a searcher if it was one.
     *
     * @return whether nobody is searching now: {@code w} must then re-check every queue and call
     *     {@link #notifyWork} if it sees work
     */
    boolean prepareToPark(AsyncWorker w, boolean wasSearching) {
        synchronized (lock) {
            w.notified = terminated;
            if (terminated) {
                return false;
            }
            parked[parkedCount++] = w;
            long s = state.addAndGet(PARKED_ONE - (wasSearching ? SEARCHING_ONE : 0));
            return searching(s) == 0;
        }
    }

    /** Sleeps until {@code w} is woken (it then counts as searching) or the runtime closes. */
    void await(AsyncWorker w) {
        while (!w.notified) {
            Thread.interrupted();              // stray interrupts must not turn this into a spin
            LockSupport.park(this);
        }
    }

    /** How many parked workers notifications have woken so far. */
    long wakes() {
        synchronized (lock) {
            return wakes;
        }
    }

    /** How many workers are parked now. */
    int parkedCount() {
        return parked(state.get());
    }

    /** Wakes every parked worker for good; later notifications do nothing. */
    void terminate() {
        AsyncWorker[] toWake;
        synchronized (lock) {
            terminated = true;
            toWake = java.util.Arrays.copyOf(parked, parkedCount);
            for (AsyncWorker w : toWake) {
                w.notified = true;
            }
        }
        for (AsyncWorker w : toWake) {
            LockSupport.unpark(w.thread);
        }
    }
}
