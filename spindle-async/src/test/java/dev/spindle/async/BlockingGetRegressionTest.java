/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Blocking waits on a handle inside a task, as a Java developer used to
 * {@code CompletableFuture.join} on a pool writes them; found by review (session 30).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingGetRegressionTest {

    /** What {@code wait} threw, or its value. */
    private static Object outcome(JoinHandle<?> parent) throws Exception {
        try {
            return parent.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /**
     * On a one-worker runtime a task that spawned a child and waited for it with {@code get()}
     * waited for itself: the child is queued on the only worker, which the wait holds. An untimed
     * get hung for good, and so did {@code close()}, which joins that worker; a timed one could
     * only time out. ({@code CompletableFuture.join} on a one-thread ForkJoinPool compensates
     * and returns; {@code run()} refuses a worker thread for this very reason.) The get now fails
     * at once with an IllegalStateException, and the child still runs.
     */
    @Test
    void aBlockingGetOnTheOnlyWorkerFailsInsteadOfWaitingForItself() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<String>[] child = new JoinHandle[2];
            JoinHandle<String> timed = rt.spawn(cx -> {
                child[0] = rt.spawn(c2 -> Poll.ready("child"));
                try {
                    return Poll.ready(child[0].get(2, TimeUnit.SECONDS));
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            });
            Object r = outcome(timed);
            assertThat(r).as("a timed get of a child on the only worker").isInstanceOf(IllegalStateException.class);
            assertThat(child[0].get(10, TimeUnit.SECONDS)).isEqualTo("child");
            JoinHandle<String> untimed = rt.spawn(cx -> {
                child[1] = rt.spawn(c2 -> Poll.ready("second child"));
                try {
                    return Poll.ready(child[1].get());
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            });
            assertThat(outcome(untimed)).as("an untimed get").isInstanceOf(IllegalStateException.class);
            assertThat(child[1].get(10, TimeUnit.SECONDS)).isEqualTo("second child");
            // a handle already done, a promise, and a handle of another runtime still block as before
            JoinHandle<String> done = child[0];
            AsyncPromise<String> promise = new AsyncPromise<>();
            try (AsyncRuntime other = AsyncRuntime.builder().workers(1).build()) {
                JoinHandle<String> elsewhere = other.spawn(cx -> Poll.ready("elsewhere"));
                JoinHandle<String> fine = rt.spawn(cx -> {
                    new Thread(() -> promise.complete("promised")).start();
                    try {
                        return Poll.ready(done.get() + " " + promise.get() + " " + elsewhere.get());
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                });
                assertThat(outcome(fine)).isEqualTo("child promised elsewhere");
            }
        }
    }
}
