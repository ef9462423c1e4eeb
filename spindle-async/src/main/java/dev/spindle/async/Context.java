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
     * @return {@code true} if the caller may proceed; {@code false} if the budget is spent: the
     *     caller must then wake the task ({@code waker().wake()}) and return pending
     */
    boolean consumeBudget();
}
