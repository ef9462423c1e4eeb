/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The starvation watch copies the watched pools into a batch before it looks at them. An error
 * thrown by that copy (an {@link OutOfMemoryError} as the batch grows) was outside the catch
 * that keeps a failed look from ending the watch thread: the thread ended, stayed recorded as
 * the watch, so no other was started, and no pool in the JVM was relieved again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationWatchSurvivesAFailedCopyTest {

    /** Before: the pool that starved was never relieved (the wait for its outcome timed out). */
    @Test
    void anErrorWhileCopyingTheWatchedPoolsLeavesThemWatched() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        CountDownLatch thrown = new CountDownLatch(1);
        StarvationWatch.beforeCopy = () -> {
            if (failOnce.compareAndSet(true, false)) {
                thrown.countDown();
                throw new OutOfMemoryError("the batch could not grow (thrown by the test)");
            }
        };
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("failed-copy").build();
        try {
            // the one worker waits untimed, unseen by the pool, for a task queued behind it
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
            assertThat(thrown.await(30, TimeUnit.SECONDS)).as("the watch copied the watched pools").isTrue();
            assertThat(outer).as("the starving pool is relieved at a later look")
                    .succeedsWithin(Duration.ofSeconds(10)).isEqualTo(42);
        } finally {
            StarvationWatch.beforeCopy = null;
            pool.shutdownNow();
        }
    }
}
