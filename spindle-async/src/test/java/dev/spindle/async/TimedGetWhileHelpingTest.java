/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.BlockedGetFixture.WORKERS;
import static dev.spindle.async.BlockedGetFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A timed {@code get} on a worker that runs queued tasks from within its wait (AsyncWorker's
 * <i>Blocking gets</i>) still ends at its timeout, as {@link java.util.concurrent.Future#get(long,
 * TimeUnit)} promises. The wait looked at its deadline only once a help found nothing to run, so
 * while every worker was blocked (here: one in a timed get of a pending task, the other in a get of
 * a promise that an outside thread completes later) and a task kept yielding (always queued
 * again), the worker in the timed get helped it round after round and its {@code get(50 ms)}
 * returned only once that task stopped.
 */
class TimedGetWhileHelpingTest {

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTimedGetEndsAtItsTimeoutWhileQueuedTasksKeepItHelping(AsyncPolicy policy) throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture(AsyncRuntime.builder().workers(WORKERS).policy(policy))) {
            AsyncRuntime rt = f.rt;
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong spins = new AtomicLong();
            AsyncPromise<String> outside = new AsyncPromise<>();
            List<JoinHandle<String>> parents = f.onEveryWorker(n -> {
                if (n == 1) {
                    return outside.get();      // counted as blocked, never helps (see JoinHandle.await)
                }
                JoinHandle<Void> child = f.spawnForever();
                // a task that keeps yielding until told to stop: always queued, so the helper
                // always finds it
                f.track(rt.spawn(cx -> {
                    if (stop.get()) {
                        return Poll.ready(null);
                    }
                    spins.incrementAndGet();
                    cx.waker().wake();
                    return Poll.pending();
                }));
                try {
                    child.get(50, TimeUnit.MILLISECONDS);
                    return "child done";
                } catch (TimeoutException e) {
                    return "timed out";
                }
            });
            try {
                assertThat(parents.get(0).get(10, TimeUnit.SECONDS)).isEqualTo("timed out");
                assertThat(spins.get()).as("polls of the yielding task").isPositive();
            } finally {
                stop.set(true);
                outside.complete("completed from outside");
            }
            assertThat(parents.get(1).get(10, TimeUnit.SECONDS)).isEqualTo("completed from outside");
            await(() -> rt.blockedInGet.get() == 0, "the blocked count to return to 0");
        }
    }
}
