/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.internal;

import dev.spindle.async.AsyncTask;

/**
 * An operation of {@code dev.spindle.async.io} that takes something out of a shared place as it
 * returns ready and can put it back should nobody receive its value: a stream's read, whose bytes
 * have left the socket. When the runtime or a combinator drops such a value (the task's handle
 * cancelled during the poll that returned it, a failed {@code all} holding it), the walk that
 * finds the channel receive or semaphore acquire a dropped value came from ({@code Async.takerOf})
 * finds these too, and has them give back as a receive gives its value back into its channel.
 * Without it the read's bytes were neither in the stream nor known to anybody: a silent gap.
 *
 * <p>Not API: the module does not export this package. It lets {@code dev.spindle.async} undo an
 * operation of {@code dev.spindle.async.io} without depending on that package, as
 * {@link DroppedValues} lets it close a connection. An abstract class rather than an interface,
 * so that the walk tells it apart by a class check (see {@code DirectTask}'s note on interface
 * checks).
 *
 * @param <T> the operation's value type
 */
public abstract class GivesBack<T> implements AsyncTask<T> {

    /** For the operations of this module. */
    protected GivesBack() {
    }

    /**
     * Undoes this operation's completion because nobody received {@code value}, which its last
     * poll returned. At most once, and only for the value of a poll that took something: any
     * other call does nothing. Runs on the thread that drops the value, after that poll; must
     * not throw but for an {@link Error} (no memory), which the caller reports.
     *
     * @param value what the operation's last poll returned
     */
    public abstract void giveBackUnreceived(Object value);
}
