/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * An operation that can wait in a FIFO queue of its owner (a channel's sends or receives, a
 * semaphore's acquires), linked through the operations themselves.
 *
 * <p>The queue is a circular doubly linked list, and its owner holds only the oldest element
 * (the newest is {@code head.prev}): an owner with nobody waiting carries one null reference
 * rather than a queue object, and removing a cancelled waiter from the middle is O(1), where an
 * {@link java.util.ArrayDeque}'s {@code remove(Object)} searched the whole queue. The links are
 * set only while the operation waits, or, for a channel's receive cancelled while it held a
 * value, while that value waits in the channel's ring of given-back values; they are guarded by
 * the owner's lock. The one exception is a queue that a closed channel fails (at its close,
 * or when a receive takes its last value in flight): it is detached whole under the lock, and
 * then walked and unlinked after the unlock by the thread that failed it, alone (nothing
 * allocated, so nothing can fail half-way); a failed operation is never queued again, and its
 * poll and cancel unlink only a waiting one.
 *
 * @param <O> the operation type, so that the links need no casts
 * @param <V> the operation's value type
 */
abstract class WaitingOp<O extends WaitingOp<O, V>, V> extends DirectTask<V> {

    O prev;
    O next;

    /**
     * Whether this operation, once it returns ready, has taken something out of its owner that
     * {@link #giveBackUnreceived} can put back: a receive (its value) and an acquire (its
     * permit), not a send (whose value the channel has accepted for good). Asked by
     * {@code Async.takerOf} only, when a value may be dropped, never on a poll.
     */
    boolean takes() {
        return false;
    }

    /**
     * Undoes this operation's completion because nobody received what its last poll returned:
     * the runtime or a combinator drops {@code value}, which that poll returned (a failed or
     * cancelled {@code all} holding it, a selection or a task's value the runtime drops). A
     * receive puts the value back into its channel, an acquire releases its permit; so the next
     * receive or acquire gets it, where it was lost before (nobody received it, so nobody
     * would pass it on or release it). At most once, and only for an operation that
     * {@link #takes()} and returned ready: any other call does nothing. Allocates nothing and
     * does not throw but for a waker's throw, which is reported.
     *
     * <p>One mechanism for both kinds: the callers find the operation with the same walk
     * ({@code Async.takerOf}), and a channel's receive and a semaphore's acquire answer it each
     * in its own terms. An abstract class's method rather than a small interface of its own, so
     * that the walk tells the operations apart by a class check (see {@link DirectTask}'s note
     * on interface checks).
     *
     * @param value what the operation's last poll returned ({@code null} for an acquire)
     */
    void giveBackUnreceived(Object value) {
    }

    /**
     * Wakes the waker of an operation that the caller has just served (completed, failed or
     * passed a value to), after the owner's unlock. A waker must not throw; one that does is
     * reported to this thread's uncaught-exception handler ({@link AsyncRuntime#reportStray}),
     * as {@link JoinHandle} and the timers do, and does not propagate: the caller's own
     * operation has completed (a send delivered its value, a receive took one, a release
     * granted its permit), and a throw here would make it look failed, or, for a receive, lose
     * the value it took; and the other waiters a {@code close()} wakes would never be woken.
     */
    static void wakeServed(Waker w) {
        try {
            w.wake();
        } catch (Throwable t) {
            AsyncRuntime.reportStray(t);
        }
    }

    /**
     * {@code w}, the waker of a poll that is about to leave this operation waiting (queued, or
     * pending for another poll); under the owner's lock, before any state changes.
     *
     * @throws NullPointerException if {@code w} is null (a hand-written context): queued with it,
     *     the operation was served later by a release, send or receive that woke nobody, and its
     *     task waited for good; refused here as a handle, a promise and the combinators refuse it
     */
    static Waker toWaitWith(Waker w, String what) {
        if (w == null) {
            throw Async.noWaker(what);
        }
        return w;
    }

    /** Appends {@code op} to the queue whose oldest element is {@code head}; returns the oldest. */
    static <O extends WaitingOp<O, ?>> O append(O head, O op) {
        if (head == null) {
            op.prev = op;
            op.next = op;
            return op;
        }
        O newest = head.prev;
        op.prev = newest;
        op.next = head;
        newest.next = op;
        head.prev = op;
        return head;
    }

    /**
     * Unlinks {@code op}, which must be in the queue whose oldest element is {@code head};
     * returns the queue's oldest element afterwards, {@code null} if it is empty.
     */
    static <O extends WaitingOp<O, ?>> O unlink(O head, O op) {
        O next = op.next;
        if (next == op) {
            head = null;                       // it was alone
        } else {
            op.prev.next = next;
            next.prev = op.prev;
            if (head == op) {
                head = next;
            }
        }
        op.prev = null;
        op.next = null;
        return head;
    }
}
