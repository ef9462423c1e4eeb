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
 * the permit, the losers registering again. Nothing is handed over and nobody queues: whoever
 * polls first when a permit is free takes it (it barges), so who wins depends on the order in
 * which the scheduler polls the woken tasks: the situation the HYBRID scheduler's
 * most-woken-first order is meant for.
 *
 * <p>The waiters are woken oldest first (a list), or newest first (as from a lock-free waiter
 * stack): then a scheduler that polls woken tasks in wake order lets the newest waiter win every
 * race, and the oldest lose again and again. For the benchmark only.
 */
final class HerdLock {

    private final int capacity;
    private final boolean newestFirst;
    private int permits;                               // guarded by this
    private List<Waker> waiting = new ArrayList<>();   // guarded by this; registration order

    HerdLock(int permits) {
        this(permits, false);
    }

    HerdLock(int permits, boolean newestFirst) {
        this.capacity = permits;
        this.permits = permits;
        this.newestFirst = newestFirst;
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
            if (permits == capacity) {
                throw new IllegalStateException("release without a matching acquire");
            }
            permits++;
            toWake = waiting;
            waiting = new ArrayList<>();
        }
        int n = toWake.size();
        for (int i = 0; i < n; i++) {
            toWake.get(newestFirst ? n - 1 - i : i).wake();
        }
    }

    /** Whether every permit is free and nobody waits: the state after a complete, correct run. */
    synchronized boolean idle() {
        return permits == capacity && waiting.isEmpty();
    }
}
