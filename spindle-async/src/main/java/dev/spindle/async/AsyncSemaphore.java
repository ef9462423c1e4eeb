/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A counting semaphore for async tasks: {@link #acquire()} is pending while no permit is free.
 *
 * <pre>{@code
 * AsyncSemaphore connections = new AsyncSemaphore(10);
 * AsyncTask<String> guarded = Async.then(connections.acquire(), permit -> {
 *     try {
 *         return Async.ready(callServer());          // at most 10 at a time
 *     } finally {
 *         connections.release();
 *     }
 * });
 * }</pre>
 *
 * <p><b>Fairness.</b> Strictly FIFO: {@link #release()} hands its permit to the oldest waiting
 * acquire (completing it under the lock, then waking it), and an acquire never takes a free
 * permit while others wait; so a burst of newcomers cannot starve a waiter, and the number of
 * permits held never exceeds the number released plus the initial count.
 *
 * <p><b>Budget.</b> Starting an acquire takes one unit of the poll's budget.
 *
 * <p><b>Cancellation.</b> {@link Async#cancel} of a waiting acquire leaves the queue; of an
 * acquire that was granted a permit it had not yet returned, releases that permit again (never
 * above {@link Integer#MAX_VALUE} free permits: a permit given back on top of those is dropped). A
 * runtime calls it when the task awaiting the acquire is cancelled through its
 * {@link JoinHandle} or the runtime shuts down. A granted acquire polled after its task's handle
 * was cancelled (the runtime drops what that poll returns) stays pending, so that cancel gives
 * the permit back, and an acquire begun in such a poll takes none (the runtime refuses it the
 * budget). An acquire that returned ready owns its permit until {@link #release()}, unless the
 * {@code Async.all} it completed in (as a child, or as the task a child ends in: a then's second
 * task, a timeout's) fails or is cancelled, or its list is dropped by the runtime
 * (its task's handle cancelled during the poll that returned it), or it won a
 * {@code Async.select} or {@code Async.any} whose value the runtime drops so, or the runtime
 * drops its own value (its task's handle cancelled after the acquire's look at its waker, before
 * the runtime recorded the value): nobody received that permit, and it is given back
 * ({@link AcquireOp#giveBackUnreceived}). So is one that a {@code recover} passed on untouched
 * (its handler did not run), in a chain of any length. An acquire that a child awaited on its
 * way (a then starting with it, a map over it) was received by that child's function, which
 * owns the permit from then on: the runtime cannot tell whether it released it already. So
 * does a function given a selection or list that holds one (a map over a select or an all).
 *
 * <p><b>The context.</b> An acquire's poll asks a runtime's own context for the budget (and a
 * granted acquire's waker whether it expired) under the lock, just before it takes the permit,
 * so that a cancel of the task's handle during the poll is seen as late as can be; it asks any
 * other context before the lock ({@code ContextAsks}), since no user code runs under
 * the lock: a context may be the caller's own, polling by hand, and a context that released a
 * permit under it (the lock is reentrant) left that permit free while the acquire waited, and
 * one that waited for another thread using the semaphore waited for good. (A runtime's waker
 * under such a context is still asked under the lock whether it expired, and refused the budget
 * if so, as the runtime's context would refuse it.)
 */
public final class AsyncSemaphore {

    private static final int NEW = 0;
    private static final int WAITING = 1;
    private static final int GRANTED = 2;
    private static final int FINISHED = 3;
    /** Returned ready: its permit is the caller's, or given back if nobody received it. */
    private static final int DONE = 4;

    private final ReentrantLock lock = new ReentrantLock();
    /** The oldest waiting acquire, or {@code null}; FIFO, linked through the acquires (WaitingOp). */
    private AcquireOp waitHead;       // guarded by lock
    private int permits;

    /**
     * A semaphore with {@code permits} free permits.
     *
     * @param permits the permits free at the start, 0 or more
     * @throws IllegalArgumentException if {@code permits < 0}
     */
    public AsyncSemaphore(int permits) {
        if (permits < 0) {
            throw new IllegalArgumentException("permits must not be negative: " + permits);
        }
        this.permits = permits;
    }

    /**
     * A task that completes once it holds one permit.
     *
     * @return a one-shot task, ready ({@code null}) holding one permit; the caller gives it back
     *     with {@link #release()}
     */
    public AsyncTask<Void> acquire() {
        return new AcquireOp();
    }

    /**
     * Takes a permit if one is free and nobody waits; never waits.
     *
     * @return {@code true} if a permit was taken (the caller then releases it), {@code false} if
     *     none is free or acquires are waiting
     */
    public boolean tryAcquire() {
        lock.lock();
        try {
            if (permits > 0 && waitHead == null) {
                permits--;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns one permit: to the oldest waiting acquire if any, else to the free count.
     *
     * @throws IllegalStateException if nobody waits and {@link Integer#MAX_VALUE} permits are
     *     free already (more releases than acquires); the count is left as it was
     */
    public void release() {
        givePermit(false);
    }

    /**
     * {@link #release()}, or with {@code fromCancel} a granted acquire's cancel giving its permit
     * back. The cancel saturates instead of throwing: a cancel must not throw
     * ({@link Cancellable}), and the runtime calls it where nobody could act on the throw
     * (before, it threw release()'s IllegalStateException there). Free permits at
     * {@link Integer#MAX_VALUE} while an acquire holds a granted one can only follow more
     * releases than acquires (the initial count is at most that, and the granted permit is
     * counted out of it), so no correct count is lost: the permit given back on top is dropped.
     */
    private void givePermit(boolean fromCancel) {
        Waker toWake = null;
        lock.lock();
        try {
            AcquireOp w = waitHead;
            if (w != null) {
                waitHead = WaitingOp.unlink(w, w);
                w.state = GRANTED;
                toWake = w.waker;
            } else if (permits == Integer.MAX_VALUE) {
                if (!fromCancel) {
                    throw new IllegalStateException("release() would raise the free permits above Integer.MAX_VALUE;"
                            + " more permits released than acquired");
                }
            } else {
                permits++;
            }
        } finally {
            lock.unlock();
        }
        if (toWake != null) {
            WaitingOp.wakeServed(toWake);      // the permit is granted: a throw must not fail release()
        }
    }

    /**
     * Free permits now.
     *
     * @return the free permits now, 0 or more; a snapshot that may be stale at once
     */
    public int availablePermits() {
        lock.lock();
        try {
            return permits;
        } finally {
            lock.unlock();
        }
    }

    /** An acquire; {@code Async.takerOf} finds it, to give back a permit nobody received. */
    final class AcquireOp extends WaitingOp<AcquireOp, Void> implements Cancellable {
        private int state = NEW; // guarded by lock
        private Waker waker;     // guarded by lock

        /** {@code null} (the acquire's value) once it holds a permit, else {@link DirectTask#PENDING}. */
        @Override
        Object pollDirect(Context cx) {
            Waker toWake = null;
            // a context not the runtime's is asked before the lock (see the overview); a release
            // may have granted this acquire since its last poll
            Waker w = cx.waker();
            int asked = ContextAsks.beforeLock(cx, w, state == NEW, true);
            lock.lock();
            try {
                switch (state) {
                    case GRANTED:
                        if (ContextAsks.expiredUnderLock(asked, w)) {
                            return PENDING;    // its task was cancelled: the retiring cancel gives it back
                        }
                        state = DONE;
                        waker = null;          // never woken again; an all's list may keep this acquire
                        return null;
                    case WAITING:
                        waker = WaitingOp.toWaitWith(w, "an acquire");
                        return PENDING;
                    case FINISHED:
                    case DONE:
                        throw new IllegalStateException("this acquire already completed");
                    default:
                        break;
                }
                if (ContextAsks.refusedUnderLock(asked, cx, w)) {
                    toWake = WaitingOp.toWaitWith(w, "an acquire");
                    return PENDING;
                }
                if (permits > 0 && waitHead == null) {
                    permits--;
                    state = DONE;
                    return null;
                }
                waker = WaitingOp.toWaitWith(w, "an acquire");
                state = WAITING;
                waitHead = WaitingOp.append(waitHead, this);
                return PENDING;
            } finally {
                lock.unlock();
                if (toWake != null) {
                    toWake.wake();
                }
            }
        }

        @Override
        public void cancel() {
            boolean giveBack = false;
            lock.lock();
            try {
                if (state == WAITING) {
                    waitHead = WaitingOp.unlink(waitHead, this);  // O(1): see WaitingOp
                } else if (state == GRANTED) {
                    giveBack = true;
                }
                state = FINISHED;              // a DONE one's permit stays whoever's it was
            } finally {
                lock.unlock();
            }
            if (giveBack) {
                givePermit(true);
            }
        }

        @Override
        boolean takes() {
            return true;
        }

        /**
         * Gives back the permit of this acquire, which returned ready to an {@code all} that
         * then dropped its value (it failed, was cancelled, or the runtime dropped its list), or
         * whose value the runtime dropped otherwise ({@link WaitingOp#giveBackUnreceived}):
         * nobody received the permit, so nobody would release it. Once: an acquire not
         * {@link #DONE} (pending, cancelled, given back already) is left as it is. Saturates as
         * a cancel's give-back does.
         */
        @Override
        void giveBackUnreceived(Object value) {
            lock.lock();
            try {
                if (state != DONE) {
                    return;
                }
                state = FINISHED;
            } finally {
                lock.unlock();
            }
            givePermit(true);
        }
    }
}
