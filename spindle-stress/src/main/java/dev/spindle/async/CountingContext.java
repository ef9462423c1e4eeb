/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.concurrent.atomic.AtomicInteger;

/** A context for polling a task by hand in a jcstress test: its waker counts the wakes. */
final class CountingContext implements Context {
    private final AtomicInteger wakes = new AtomicInteger();
    private final Waker waker = wakes::incrementAndGet;

    @Override
    public Waker waker() {
        return waker;
    }

    @Override
    public boolean consumeBudget() {
        return true;
    }

    /** The wakes so far. */
    int wakes() {
        return wakes.get();
    }
}
