/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.util.ArrayList;
import java.util.List;

/**
 * A would-block resource with readiness semantics, as a socket behind a selector: an acquire
 * that finds no permit registers its waker and returns pending; a release wakes every registered
 * waker (as a readiness event wakes every task interested in it) and the woken tasks race for
 * the permit, the losers registering again. Nothing is handed over, so who wins depends on
 * the order in which the scheduler polls the woken tasks: the situation the HYBRID scheduler's
 * most-woken-first order is meant for. For the benchmark only.
 */
final class HerdLock {

    private int permits;                           // guarded by this
    private List<Waker> waiting = new ArrayList<>(); // guarded by this

    HerdLock(int permits) {
        this.permits = permits;
    }

    /** A task that completes once it holds a permit. */
    AsyncTask<Void> acquire() {
        return cx -> {
            synchronized (this) {
                if (permits > 0) {
                    permits--;
                    return Poll.ready(null);
                }
                waiting.add(cx.waker());
                return Poll.pending();
            }
        };
    }

    void release() {
        List<Waker> toWake;
        synchronized (this) {
            permits++;
            toWake = waiting;
            waiting = new ArrayList<>();
        }
        for (Waker w : toWake) {
            w.wake();
        }
    }
}
