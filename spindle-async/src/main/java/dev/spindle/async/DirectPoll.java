/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * A task of this package that can answer a poll without a {@link Poll} object: {@link #pollDirect}
 * returns the value itself when the task is ready, and {@link #PENDING} otherwise.
 *
 * <p><b>Why.</b> {@link Poll#ready(Object)} allocates for every value but {@code null}, so each
 * await of a value (a receive, a joined handle, a map) cost a 24-byte object that the awaiting
 * combinator unwraps at once. The combinators of {@link Async} and the runtime itself ask a task of
 * this package for its value with {@link #pollValue}, and never see a {@code Poll}; a user's
 * {@link AsyncTask} is polled as before. Two of ping_pong's polls per round trip are of this kind.
 *
 * <p>The contract is the poll's: {@code pollDirect} is {@link AsyncTask#poll} with the result
 * unwrapped, so a task implements {@code poll} as {@link #wrap}{@code (pollDirect(cx))} and has
 * one body. The marker is private to the package, so no value a user's task computes can be
 * mistaken for it.
 *
 * @param <T> the task's result type
 */
interface DirectPoll<T> extends AsyncTask<T> {

    /** What {@link #pollDirect} returns while the task is pending; never a task's value. */
    Object PENDING = new Object() {
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
    Object pollDirect(Context cx);

    /**
     * Polls {@code task}: directly if it is a task of this package, else through its
     * {@link AsyncTask#poll}.
     *
     * @return the value if ready (may be {@code null}); {@link #PENDING} if not
     * @throws NullPointerException if a user's task returns {@code null} instead of a {@link Poll}
     */
    static Object pollValue(AsyncTask<?> task, Context cx) {
        if (task instanceof DirectPoll<?> d) {
            return d.pollDirect(cx);
        }
        Poll<?> p = task.poll(cx);
        return p.isPending() ? PENDING : p.value();
    }

    /** The {@link Poll} for a {@link #pollDirect} result. */
    @SuppressWarnings("unchecked")
    static <T> Poll<T> wrap(Object direct) {
        return direct == PENDING ? Poll.pending() : Poll.ready((T) direct);
    }
}
