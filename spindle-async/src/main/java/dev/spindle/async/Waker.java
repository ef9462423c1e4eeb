/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * Makes a pending task runnable again. Obtained from {@link Context#waker()} while the task is
 * polled, and handed to whatever will signal progress (a timer, a channel, a selector).
 *
 * <p>{@link #wake()} may be called from any thread, any number of times, at any moment: a wake
 * while the task is being polled makes it run again after that poll returns pending; several
 * wakes before the next poll cause one poll; a wake after the task completed does nothing.
 */
@FunctionalInterface
public interface Waker {

    /** Schedules the task to be polled again; cheap, never blocks, never throws. */
    void wake();
}
