/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * What a channel operation or a semaphore acquire asks its poll's context, and when: the rule
 * {@link AsyncChannel} (its overview's <b>Implementation</b>) and {@link AsyncSemaphore} (<b>The
 * context</b>) both follow, kept in one place.
 *
 * <p>A runtime's own context ({@link Async#isRuntimeContext}) runs no user code, so it is asked
 * under the primitive's lock, as late as can be, just before a value or a permit is taken: a
 * cancel of the task's handle during the poll is then seen there. Any other context may be the
 * caller's own, polling by hand, and may look at the same channel or semaphore: it is asked
 * before the lock ({@link #beforeLock}), for the budget only by the poll that starts the operation
 * (only a poll moves it out of its first state), and whether its waker expired only by a later
 * one (the operation may have been served since). A runtime's waker under such a context is still
 * asked under the lock whether it expired, and refused the budget if so, as the runtime's own
 * context would refuse it. The answers travel as the bits of an {@code int}, so a poll allocates
 * nothing for them.
 */
final class ContextAsks {

    /** The context is a runtime's own: ask it under the lock. */
    private static final int OWN = 1;
    /** The waker is a runtime's own: ask it whether it expired under the lock. */
    private static final int OWN_WAKER = 2;
    /** A context not the runtime's granted the budget (or the operation had begun already). */
    private static final int BUDGET = 4;
    /** A waker not the runtime's said, before the lock, that it expired. */
    private static final int EXPIRED = 8;

    private ContextAsks() {
    }

    /**
     * Asks what may be asked before the lock.
     *
     * @param cx the poll's context
     * @param w its waker ({@code cx.waker()}, asked once by the caller)
     * @param begins whether this poll begins the operation (it is in its first state)
     * @param mayBeServed whether a later poll may find the operation served, and must then know
     *     whether the task was cancelled (a receive, an acquire; not a send, which once accepted
     *     has sent)
     * @return the answers, for {@link #refusedUnderLock} and {@link #expiredUnderLock}
     */
    static int beforeLock(Context cx, Waker w, boolean begins, boolean mayBeServed) {
        if (Async.isRuntimeContext(cx)) {
            return OWN | OWN_WAKER;
        }
        boolean ownWaker = Async.isRuntimeContext(w);
        int asked = ownWaker ? OWN_WAKER : 0;
        if (!begins || cx.consumeBudget()) {
            asked |= BUDGET;
        }
        if (mayBeServed && !ownWaker && !begins && w.expired()) {
            asked |= EXPIRED;
        }
        return asked;
    }

    /**
     * Under the lock, before the operation takes a value, a slot or a permit: whether it must not,
     * being out of budget or its task cancelled (the caller then returns pending with its waker
     * woken).
     */
    static boolean refusedUnderLock(int asked, Context cx, Waker w) {
        if ((asked & OWN) != 0) {
            return !cx.consumeBudget();
        }
        return (asked & BUDGET) == 0 || (asked & OWN_WAKER) != 0 && w.expired();
    }

    /** Under the lock, for an operation served since its last poll: whether its task was cancelled. */
    static boolean expiredUnderLock(int asked, Waker w) {
        return (asked & OWN_WAKER) != 0 ? w.expired() : (asked & EXPIRED) != 0;
    }
}
