/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A poll that blocks its worker (which a poll should not do, but which a blocking {@code get} on a
 * handle makes easy) does not strand what it scheduled: a parked peer watches a worker whose poll
 * runs on and takes the task waiting behind it ({@code LoneTaskWatch}). Each test first waits
 * until the other worker is parked, so that only that backstop can run the task: without it the
 * blocked poll waits for good (here, until its bound of {@code WAIT_S} seconds, and fails).
 */
class StalledPollTest {

    /** Waits until {@code n} workers of {@code rt} are parked and none searches. */
    static void awaitParked(AsyncRuntime rt, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (rt.stats().parkedWorkers() < n || rt.stats().searchingWorkers() != 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("workers never parked: " + rt.stats());
            }
            Thread.sleep(1);
        }
    }

    @Test
    void aTaskSpawnedByAPollThatThenBlocksOnItRunsOnAParkedPeer() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.WORK_STEALING).build()) {
            JoinHandle<String> parent = rt.spawn(cx -> {
                try {
                    awaitParked(rt, 1);
                    JoinHandle<String> child = rt.spawn(c2 -> Poll.ready("child ran"));  // the LIFO slot
                    return Poll.ready(child.get(WAIT_S, TimeUnit.SECONDS));           // blocks the worker
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(parent.get(2 * WAIT_S, TimeUnit.SECONDS)).isEqualTo("child ran");
        }
    }

    @Test
    void aTaskWokenByAPollThatThenBlocksOnItRunsOnAParkedPeer() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.WORK_STEALING).build()) {
            AsyncPromise<String> go = new AsyncPromise<>();
            JoinHandle<String> waiter = rt.spawn(cx -> {
                Poll<String> p = go.poll(cx);
                return p.isReady() ? Poll.ready("woken and ran: " + p.value()) : Poll.pending();
            });
            JoinHandle<String> parent = rt.spawn(cx -> {
                try {
                    awaitParked(rt, 1);
                    go.complete("go");                                      // wakes waiter into the slot
                    return Poll.ready(waiter.get(WAIT_S, TimeUnit.SECONDS)); // blocks the worker
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(parent.get(2 * WAIT_S, TimeUnit.SECONDS)).isEqualTo("woken and ran: go");
        }
    }
}
