/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.Waker;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds every task of a run until all of them have arrived, then lets them all go at once (the
 * last to arrive wakes the others, in arrival order). Without it, a task spawned from outside
 * can run all its acquires before the next one is even picked up, and nobody ever waits. For
 * the benchmark only.
 */
final class StartGate {

    private final int parties;
    private int arrived;                               // guarded by this
    private List<Waker> waiting = new ArrayList<>();   // guarded by this; null once open

    StartGate(int parties) {
        this.parties = parties;
    }

    /**
     * Called from a task's poll until it returns {@code true}; {@code first} says whether this
     * is the task's first call (only then does it count as an arrival).
     */
    boolean pass(boolean first, Waker w) {
        List<Waker> toWake;
        synchronized (this) {
            if (waiting == null) {
                return true;
            }
            if (!first) {
                return false;                          // woken early: impossible, but harmless
            }
            if (++arrived < parties) {
                waiting.add(w);
                return false;
            }
            toWake = waiting;
            waiting = null;
        }
        for (Waker x : toWake) {
            x.wake();
        }
        return true;
    }
}
