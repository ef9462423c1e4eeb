/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.StalledPollTest.awaitParked;
import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where a wake-up made on a worker sends the woken task ({@code AsyncRuntime.deliverToOwner}):
 * not to a parked last poller, which would have to be woken for it, but to the waking worker,
 * which runs it after its poll (WORK_STEALING through its LIFO slot, HYBRID through its own wake
 * channel), and wakes nobody.
 */
class WakePlacementTest {

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskWokenOnAWorkerWhileItsLastPollerSleepsRunsOnTheWakingWorker(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build()) {
            // Worker X is held while worker P polls the task first: P is its last poller.
            HeldWorker x = new HeldWorker(rt);
            AsyncPromise<String> go = new AsyncPromise<>();
            AtomicReference<Thread> firstPoll = new AtomicReference<>();
            AtomicReference<Thread> lastPoll = new AtomicReference<>();
            JoinHandle<String> task = rt.spawn(cx -> {
                firstPoll.compareAndSet(null, Thread.currentThread());
                lastPoll.set(Thread.currentThread());
                return go.poll(cx);
            });
            awaitParked(rt, 1);                                  // P, after the task's first poll
            Thread p = firstPoll.get();
            assertThat(p).isNotNull();
            x.release();
            awaitParked(rt, 2);                                  // X parked last: woken first
            int pIndex = indexOf(p);
            long pUnparks = rt.stats().workers().get(pIndex).unparks();

            // Woken from a task on X while P sleeps: it runs on X, and P is not woken.
            AtomicReference<Thread> waker = new AtomicReference<>();
            JoinHandle<Void> wake = rt.spawn(cx -> {
                waker.set(Thread.currentThread());
                go.complete("went");
                return Poll.ready(null);
            });
            wake.get(WAIT_S, TimeUnit.SECONDS);
            assertThat(task.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("went");
            assertThat(waker.get()).as("the waking task ran on X, not P").isNotSameAs(p);
            assertThat(lastPoll.get()).as("the woken task ran on the waking worker").isSameAs(waker.get());
            assertThat(rt.stats().workers().get(pIndex).unparks()).as("P's unparks").isEqualTo(pUnparks);
        }
    }

    /** A worker's index, from its thread's name ({@code <name>-worker-<index>}). */
    private static int indexOf(Thread t) {
        String n = t.getName();
        return Integer.parseInt(n.substring(n.lastIndexOf('-') + 1));
    }
}
