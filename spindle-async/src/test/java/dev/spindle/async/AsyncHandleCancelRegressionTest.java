/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * {@link Async#timeout}, {@link Async#select} and {@link Async#any} over the {@link JoinHandle}
 * of a spawned task: giving up on it, or letting it lose, cancels the task as their Javadoc
 * says, instead of leaving an orphan that keeps running (here: holding a timer entry for an
 * hour). {@link Async#all} documents the opposite and keeps it.
 */
class AsyncHandleCancelRegressionTest {

    /** What a test does with its runtime. */
    private interface WithRuntime {
        void run(AsyncRuntime rt) throws Throwable;
    }

    /** Runs {@code body} on a fresh runtime of two workers, closed after it; 30 seconds at the most (a hang fails). */
    private static void onARuntime(WithRuntime body) {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("handle-cancel").build()) {
                body.run(rt);
            }
        });
    }

    /** Spawns a task that would complete with 0 in an hour: one that only a cancellation ends within a test. */
    private static JoinHandle<Integer> spawnSlow(AsyncRuntime rt) {
        return rt.spawn(Async.map(Async.sleep(Duration.ofHours(1)), x -> 0));
    }

    @Test
    void timeoutGivingUpCancelsTheSpawnedTask() {
        onARuntime(rt -> {
            JoinHandle<Void> slow = rt.spawn(Async.sleep(Duration.ofHours(1)));
            assertThatThrownBy(() -> rt.run(Async.timeout(slow, Duration.ofMillis(20))))
                    .hasRootCauseInstanceOf(TimeoutException.class);
            assertThat(slow.isCancelled()).as("the task the timeout gave up on").isTrue();
        });
    }

    @Test
    void timeoutOfAHandleThatCompletedReportsItsValue() {
        onARuntime(rt -> {
            JoinHandle<Integer> done = rt.spawn(Async.ready(7));
            assertThat(done.get()).isEqualTo(7);
            assertThat(rt.run(Async.timeout(done, Duration.ZERO))).isEqualTo(7);
            assertThat(done.isCancelled()).isFalse();
        });
    }

    @Test
    void selectCancelsASpawnedLoser() {
        onARuntime(rt -> {
            JoinHandle<Integer> slow = spawnSlow(rt);
            Async.Selected<Integer> s = rt.run(Async.select(List.of(slow, Async.ready(1))));
            assertThat(s.index()).isEqualTo(1);
            assertThat(slow.isCancelled()).as("the spawned loser").isTrue();
        });
    }

    @Test
    void anyCancelsASpawnedLoser() {
        onARuntime(rt -> {
            JoinHandle<Integer> slow = spawnSlow(rt);
            assertThat(rt.run(Async.any(List.of(slow, Async.ready(1))))).isEqualTo(1);
            assertThat(slow.isCancelled()).as("the spawned loser").isTrue();
        });
    }

    @Test
    void allLeavesASpawnedSiblingRunningAsDocumented() {
        onARuntime(rt -> {
            JoinHandle<Integer> slow = spawnSlow(rt);
            assertThatThrownBy(() -> rt.run(Async.all(List.of(slow,
                    Async.<Integer>failed(new IllegalStateException("boom"))))))
                    .hasRootCauseInstanceOf(IllegalStateException.class);
            assertThat(slow.isDone()).isFalse();
            slow.cancel(false);
        });
    }

    @Test
    void selectDoesNotCancelALosingPromise() {
        onARuntime(rt -> {
            AsyncPromise<Integer> shared = new AsyncPromise<>();
            assertThat(rt.run(Async.any(List.of(shared, Async.ready(1))))).isEqualTo(1);
            assertThat(shared.isDone()).as("a promise is only no longer awaited").isFalse();
        });
    }
}
