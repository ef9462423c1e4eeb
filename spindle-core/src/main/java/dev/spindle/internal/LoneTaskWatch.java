/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The backstop for work that waits behind a busy worker: a parked worker watches its peers, and
 * if one holds queued work while its running task runs on for a whole
 * {@linkplain #INTERVAL_NANOS interval}, it goes and takes that work. One instance per worker (it
 * keeps what that worker saw of its peers). Used by {@code WorkStealingPool}'s workers and
 * spindle-async's {@code AsyncWorker}. Not part of the public API: the package is exported only to
 * Spindle's own modules.
 *
 * <h2>Why it is needed</h2>
 *
 * <p>A worker's own submissions wake a peer only racily ({@link IdleCoordinator#notifyWorkRacy()}),
 * and some local work wakes nobody by design: the task an async worker's LIFO slot holds, which
 * its worker runs right after the running task, or the one task in the deque of a worker that will
 * pop it next. That bet is right while the running task is short. When it blocks or computes for
 * long (which a task should not, but does: a blocking {@code get} on a handle it just spawned is
 * enough), the queued work waits for it while the peers sleep, and a task that waits for what it
 * queued waits for good. So a parking worker that sees a peer holding queued work, or (where the
 * caller asks, {@link Peer#isBusy}) a peer merely running a task, does not sleep for good: it
 * sleeps an interval at a time, and each time looks again. A peer that holds queued work and has
 * neither started nor finished a task since the last look has been running the same task for at
 * least an interval: the watcher leaves the parked stack and takes the work as any searcher does
 * (the queues' own claims decide who runs it). Once no peer holds work or is busy, the watcher
 * sleeps until woken, as any parked worker.
 *
 * <h2>Why it is safe and cheap</h2>
 *
 * <p>The watcher stays registered as parked throughout: a wake-up meant for it is taken as usual
 * ({@link IdleCoordinator#isNotified}), and it leaves the stack only through
 * {@link IdleCoordinator#cancelPark}, which fails if a waker got there first. So the protocol's
 * argument (see {@link IdleCoordinator}) is untouched: a watcher is a parked worker that wakes up
 * by itself now and then, which the protocol already allows (spurious returns). Nothing is added
 * to the task path: a peer's progress is a counter it keeps anyway. A peer that keeps finishing
 * tasks is never robbed. An idle pool has nothing to watch, so it stays at no CPU; a busy one pays
 * one timed wake-up an interval per watcher.
 */
public final class LoneTaskWatch {

    /**
     * The pools' interval: how long a peer's task may run on with a lone task queued behind it
     * before a watcher takes that task: the watchers look this often while a peer holds one.
     */
    public static final long INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    /** A worker as a watcher sees it. Every method is called from the watcher's thread, racily. */
    public interface Peer {
        /** A count that changes whenever the peer starts or finishes a task. */
        long progress();

        /** Whether the peer holds queued work that another worker may take. */
        boolean holdsWork();

        /** Whether the peer runs a task now, and so may yet queue work behind it. */
        boolean isBusy();

        /**
         * Called when the watch finds this peer ran on with work queued, just before the watcher
         * goes to take that work: a peer that keeps work where no other worker may take it (an
         * async HYBRID worker's hot queue) moves it where one can. Does nothing by default.
         */
        default void stalled() {
        }
    }

    /** The peers to watch: indices {@code 0} to {@code size() - 1}, some of them {@code null}. */
    public interface Peers {
        /** How many peer indices there are now, at most the capacity given to the watch. */
        int size();

        /** The peer at index {@code i}, or {@code null}. */
        Peer get(int i);

        /**
         * The elements of {@code workers} as peers, read when asked: the array may be filled after
         * this call (a pool makes the view before its workers).
         */
        static Peers of(Peer[] workers) {
            return new Peers() {
                @Override
                public int size() {
                    return workers.length;
                }

                @Override
                public Peer get(int i) {
                    return workers[i];
                }
            };
        }
    }

    /** How a watch ended. */
    public enum Outcome {
        /** Woken through the idle protocol (counted as searching if {@code notifyWork} woke it). */
        WOKEN,
        /** A peer's task ran on with work queued: the watcher left the parked stack to take it. */
        RESUME,
        /** The pool stops: the caller exits. */
        EXIT,
        /** Nothing to watch (any more): the caller sleeps as usual, still registered as parked. */
        NOTHING_TO_WATCH,
    }

    private final int self;
    private final Peers peers;
    private final long[] seen;
    /** Whether a peer that is only busy counts as nothing to watch (see the four-argument constructor). */
    private final boolean heldOnly;

    /**
     * @param self the watching worker's index among {@code peers} (skipped)
     * @param peers its peers
     * @param capacity the most peer indices there will ever be
     */
    public LoneTaskWatch(int self, Peers peers, int capacity) {
        this(self, peers, capacity, false);
    }

    /**
     * @param self the watching worker's index among {@code peers} (skipped)
     * @param peers its peers
     * @param capacity the most peer indices there will ever be
     * @param heldOnly whether to look only for queued work, never counting a peer that is merely
     *     {@linkplain Peer#isBusy busy}: a watch with a sleep cap of 0 then ends as soon as no
     *     peer holds work (a work-stealing pool's spare, which watches only what it saw queued
     *     and otherwise sleeps out its keep-alive)
     */
    public LoneTaskWatch(int self, Peers peers, int capacity, boolean heldOnly) {
        this.self = self;
        this.peers = peers;
        this.seen = new long[capacity];
        this.heldOnly = heldOnly;
    }

    /**
     * Watches the peers while this worker stays registered as parked in {@code idle}. A peer that
     * holds work at a look and has not started or finished a task since the previous look has
     * run one task at least from that look to this one: the watch ends with
     * {@link Outcome#RESUME}. The sleep between looks is {@code intervalNanos} while a peer holds
     * work, so a task stuck behind a running one is taken within two intervals of being queued;
     * while peers are busy with nothing queued, or idle, it doubles up to
     * {@code sleepCapNanos}, so a watcher over a long task or an idle pool wakes rarely (a task
     * queued behind a task that then blocks waits up to twice the cap).
     *
     * @param idle the idle protocol in which this worker is registered as parked
     * @param mustExit whether the pool stops (checked before each sleep)
     * @param intervalNanos the sleep between two looks while a peer holds work
     * @param sleepCapNanos {@code 0} to return {@link Outcome#NOTHING_TO_WATCH} as soon as no
     *     peer holds work or (unless the watch is held-only) is busy; else the longest
     *     sleep while no peer holds work, the watch then going on until this worker is woken
     * @return how the watch ended
     */
    public Outcome watch(IdleCoordinator idle, BooleanSupplier mustExit, long intervalNanos, long sleepCapNanos) {
        return watch(idle, mustExit, intervalNanos, sleepCapNanos, sleepCapNanos == 0 ? 1 : Integer.MAX_VALUE);
    }

    /**
     * As {@link #watch(IdleCoordinator, BooleanSupplier, long, long)}, ending with
     * {@link Outcome#NOTHING_TO_WATCH} once {@code idleLooks} looks in a row found no peer that
     * holds work or is busy (the sleeps between them backing off up to {@code sleepCapNanos}):
     * a watcher that gives up only after a short quiet spell is still watching when work comes
     * back soon, so the first worker to wake then has nobody to nudge.
     *
     * @param idleLooks looks in a row that find nothing before the watch gives up, at least 1
     *     ({@link Integer#MAX_VALUE}: never)
     * @throws IllegalArgumentException if {@code idleLooks} is below 1, or {@code sleepCapNanos}
     *     is 0 with more than one such look (there would be no sleep between them to back off)
     */
    public Outcome watch(IdleCoordinator idle, BooleanSupplier mustExit, long intervalNanos, long sleepCapNanos,
                         int idleLooks) {
        if (idleLooks < 1 || (sleepCapNanos == 0 && idleLooks != 1)) {
            throw new IllegalArgumentException("idleLooks must be at least 1, and 1 without a sleep cap; was "
                    + idleLooks + " with a cap of " + sleepCapNanos + " ns");
        }
        int seenNow = look();
        int quiet = seenNow == NOTHING ? 1 : 0;
        if (quiet >= idleLooks) {
            return Outcome.NOTHING_TO_WATCH;
        }
        long sleep = intervalNanos;
        while (!idle.isNotified(self)) {
            if (mustExit.getAsBoolean()) {
                return Outcome.EXIT;
            }
            idle.sleepAtMost(self, seenNow == HELD ? intervalNanos : sleep);
            if (idle.isNotified(self)) {
                break;
            }
            if (ranOnWithWorkQueued()) {
                return idle.cancelPark(self) ? Outcome.RESUME : Outcome.WOKEN;
            }
            seenNow = look();
            quiet = seenNow == NOTHING ? quiet + 1 : 0;
            if (quiet >= idleLooks) {
                return Outcome.NOTHING_TO_WATCH;
            }
            sleep = seenNow == HELD ? intervalNanos : Math.min(sleep << 1, Math.max(sleepCapNanos, intervalNanos));
        }
        return Outcome.WOKEN;
    }

    /**
     * Whether a watch would find anything to watch now: a peer that holds work or is busy (a
     * look, as {@link #watch} begins with).
     */
    public boolean anythingToWatch() {
        return look() != NOTHING;
    }

    /**
     * Whether any peer is {@linkplain Peer#isBusy busy} or holds work now, whatever this watch
     * watches for (a held-only watch too); unlike {@link #anythingToWatch}, records nothing.
     */
    public boolean anyPeerActive() {
        int n = Math.min(peers.size(), seen.length);
        for (int i = 0; i < n; i++) {
            Peer p = i == self ? null : peers.get(i);
            if (p != null && (p.isBusy() || p.holdsWork())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a peer holds work and has not started or finished a task since the last look. */
    private boolean ranOnWithWorkQueued() {
        int n = Math.min(peers.size(), seen.length);
        for (int i = 0; i < n; i++) {
            Peer p = i == self ? null : peers.get(i);
            if (p != null && p.holdsWork() && p.progress() == seen[i]) {
                p.stalled();
                return true;
            }
        }
        return false;
    }

    /** What a look found: no peer busy or holding work, some busy but none holding, some holding. */
    private static final int NOTHING = 0;
    private static final int BUSY = 1;
    private static final int HELD = 2;

    /** Records every peer's progress; what it found ({@link #NOTHING}, {@link #BUSY}, {@link #HELD}). */
    private int look() {
        int found = NOTHING;
        int n = Math.min(peers.size(), seen.length);
        for (int i = 0; i < n; i++) {
            Peer p = i == self ? null : peers.get(i);
            if (p == null) {
                seen[i] = Long.MIN_VALUE;      // a peer that appears later is first looked at
                continue;
            }
            seen[i] = p.progress();
            if (p.holdsWork()) {
                found = HELD;
            } else if (found == NOTHING && !heldOnly && p.isBusy()) {
                found = BUSY;
            }
        }
        return found;
    }
}
