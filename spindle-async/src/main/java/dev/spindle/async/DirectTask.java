/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.async.internal.DroppedValues;
import java.util.function.Consumer;

/**
 * A task of this package that can answer a poll without a {@link Poll} object:
 * {@link #pollDirect} returns the value itself when the task is ready, and {@link #PENDING}
 * otherwise.
 *
 * <p><b>Why.</b> {@link Poll#ready(Object)} allocates for every value but {@code null}, so each
 * await of a value (a receive, a map) cost a 24-byte object that the awaiting combinator unwrapped
 * at once. The combinators of {@link Async} ask for their inner tasks' values with
 * {@link #pollValue}, which reads a {@code DirectTask}'s or a {@link JoinHandle}'s value directly
 * and polls a user's {@link AsyncTask} as before. Two of ping_pong's polls per round trip are of
 * this kind.
 *
 * <p><b>Why a class, not an interface.</b> {@link #pollValue} tells the package's tasks apart with
 * {@code instanceof} on every poll. Against a class that is a constant-time check of the
 * receiver's class hierarchy. Against an interface, JDK 17 to 22 look the interface up in the
 * class's list of secondary supertypes and remember the last hit in a one-entry cache on the
 * class; a task class checked against two interfaces in turn (here the cast of {@code then}'s
 * function result to {@link AsyncTask}, then the marker) rewrites that cache on every poll. An
 * interface marker made async ping_pong 12-18 % slower on JDK 17 and cost nothing on JDK 25,
 * whose lookup is hashed; see docs/BENCHMARKS.md.
 *
 * <p>The contract is the poll's: {@code pollDirect} is {@link AsyncTask#poll} with the result
 * unwrapped, and {@link #poll} wraps it, so a task has one body. The marker is private to the
 * package, so no value a user's task computes can be mistaken for it. The wrapper is allocated
 * after the value is taken: a task whose value leaves a shared place (a channel's receive)
 * overrides {@link #poll} to give it back should that allocation fail.
 *
 * @param <T> the task's result type
 */
abstract class DirectTask<T> implements AsyncTask<T> {

    /** What {@link #pollDirect} returns while the task is pending; never a task's value. */
    static final Object PENDING = new Object() {
        @Override
        public String toString() {
            return "Pending";
        }
    };

    /**
     * Polls the task as {@link AsyncTask#poll} does, answering the value itself.
     *
     * @param cx the context of the poll under way
     * @return the value (may be {@code null}) if the task is ready; {@link #PENDING} if it is not
     */
    abstract Object pollDirect(Context cx);

    /**
     * Run, if set, with the task as its poll wraps a ready value in a {@link Poll}: a seam for
     * tests, which throw from it the {@link OutOfMemoryError} a full heap throws at that
     * allocation. Read only once a value is ready, never by a pending poll.
     */
    static volatile Consumer<DirectTask<?>> beforeWrap;

    /**
     * {@link #pollDirect}, wrapped. Should the wrapper not be allocated (an
     * {@link OutOfMemoryError}), this poll throws and the task is finished with nobody to receive
     * its value: it is dropped as the runtime drops one ({@link DroppedValues}: a connection is
     * closed; kept, its socket leaked and its peer waited for good), unless a handle still holds
     * it ({@link #readFromHandle}). A value that a receive or an acquire took and this task passes
     * on untouched (an {@code any} won by one, a long chain run as a pipeline ending in one) is
     * given back instead ({@link Async#takerOf}): the message goes back into its channel, the
     * permit is released. A task whose value leaves a shared place (a channel's receive)
     * overrides this to give it back itself.
     */
    @Override
    public Poll<T> poll(Context cx) {
        Object v = pollDirect(cx);
        if (v == PENDING) {
            return Poll.pending();
        }
        try {
            return ready(this, v);
        } catch (Throwable t) {
            if (!readFromHandle()) {
                Object taker = Async.takerOf(this);
                if (taker == null) {
                    drop(v, t);
                } else {
                    giveBack(taker, v, t);
                }
            }
            throw t;
        }
    }

    /** {@link Async#dropUnreceived} of {@code v}; a throw (a waker's) is suppressed into {@code t}. */
    private static void giveBack(Object taker, Object v, Throwable t) {
        try {
            Async.dropUnreceived(v, taker);
        } catch (Throwable e) {
            t.addSuppressed(e);
        }
    }

    /**
     * Whether the value {@link #pollDirect} just returned is a {@link JoinHandle}'s own, which the
     * handle keeps for its other awaiters and for a poll again: then a failed wrap leaves it to
     * the handle, as a {@code select} won by a handle does. {@code false} by default: the value
     * is this task's alone. A map answers for a value its function passed on unchanged, a
     * recover for one its task's poll returned, a loop for the result its last turn passed on,
     * by asking their task.
     */
    boolean readFromHandle() {
        return false;
    }

    /** {@code Poll.ready(v)} for {@code task}'s poll, after the test seam ({@link #beforeWrap}). */
    @SuppressWarnings("unchecked")
    static <T> Poll<T> ready(DirectTask<?> task, Object v) {
        Consumer<DirectTask<?>> seam = beforeWrap;
        if (seam != null) {
            seam.accept(task);
        }
        return Poll.ready((T) v);
    }

    /**
     * Drops {@code v}, which nobody will receive since the poll that had it throws {@code t}; a
     * failure to close it is suppressed into {@code t}, which the poll goes on to throw.
     */
    static void drop(Object v, Throwable t) {
        try {
            DroppedValues.dropped(v);
        } catch (Throwable e) {
            t.addSuppressed(e);
        }
    }

    /**
     * Polls {@code task}: directly if it is a task of this package or a {@link JoinHandle}, else
     * through its {@link AsyncTask#poll}.
     *
     * @return the value if ready (may be {@code null}); {@link #PENDING} if not
     * @throws NullPointerException if a user's task returns {@code null} instead of a {@link Poll}
     *     (it is withdrawn first: see {@link #pollOf})
     */
    static Object pollValue(AsyncTask<?> task, Context cx) {
        if (task instanceof DirectTask<?> d) {
            return d.pollDirect(cx);
        }
        if (task instanceof JoinHandle<?> h) {
            return h.pollOutcome(cx);
        }
        Poll<?> p = pollOf(task, cx, "AsyncTask.poll returned null instead of a Poll");
        return p.isPending() ? PENDING : p.value();
    }

    /**
     * {@code task.poll(cx)}, for a combinator polling a task it owns. A broken task whose poll
     * returns {@code null} may have registered its waker first (a receive it started waits in
     * its channel): it is withdrawn ({@link Async#cancel}), as a runtime withdraws a spawned
     * task that does so, and a {@link NullPointerException} is thrown: {@code message} and the
     * task's class (named only then: this is every combinator's poll of a user's task).
     * Thrown without the withdrawal, it finished the combinator, which nobody cancels then, and
     * the broken task's receive took the next value sent, for nobody.
     */
    static <T> Poll<T> pollOf(AsyncTask<T> task, Context cx, String message) {
        Poll<T> p = task.poll(cx);
        if (p == null) {
            NullPointerException npe = new NullPointerException(message + ". Task: " + task.getClass().getName());
            try {
                Async.cancel(task);
            } catch (Throwable stray) {
                npe.addSuppressed(stray);      // as the runtime reports a cancel that throws there
            }
            throw npe;
        }
        return p;
    }

    /** The {@link Poll} for a {@link #pollDirect} result. */
    @SuppressWarnings("unchecked")
    static <T> Poll<T> wrap(Object direct) {
        return direct == PENDING ? Poll.pending() : Poll.ready((T) direct);
    }
}
