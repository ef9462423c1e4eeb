/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import dev.spindle.async.Context;
import dev.spindle.async.Waker;

/** Polling an I/O task by hand on the test's thread, without a runtime. */
final class ByHand {

    private ByHand() {
    }

    /** A context that wakes through {@code waker} and whose budget never runs out. */
    static Context context(Waker waker) {
        return new Context() {
            @Override
            public Waker waker() {
                return waker;
            }

            @Override
            public boolean consumeBudget() {
                return true;
            }
        };
    }
}
