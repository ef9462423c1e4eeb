/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * What a task gets for one poll: its {@link Waker}, and a cooperative budget.
 *
 * <p><b>The budget.</b> Each poll starts with a budget of operations (128 by default, see the
 * runtime's builder). Resources that can make progress without waiting (a channel with messages
 * queued, a socket with bytes buffered) call {@link #consumeBudget()} before each operation; once
 * it returns {@code false} they wake the task and return pending instead, so a task that always
 * finds work ready still gives its thread back to others.
 *
 * <p>A runtime's context also refuses the budget to a poll of a task whose {@link JoinHandle}
 * was cancelled while the poll ran: the runtime drops what such a poll returns, so an operation
 * begun in it takes nothing (a value sent after the {@code cancel} stays in its channel), and
 * the runtime cancels the operation when it retires the task.
 */
public interface Context {

    /**
     * The waker of the task being polled.
     *
     * @return the waker that schedules this task's next poll; it may be kept and called from any
     *     thread, any number of times
     */
    Waker waker();

    /**
     * Takes one unit of the budget of this poll.
     *
     * @return {@code true} if the caller may proceed; {@code false} if the budget is spent (or the
     *     task was cancelled, see above): the caller must then wake the task
     *     ({@code waker().wake()}) and return pending
     */
    boolean consumeBudget();
}
