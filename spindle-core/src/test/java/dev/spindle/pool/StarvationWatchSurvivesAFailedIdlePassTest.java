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
 * With no pool armed, the starvation watch makes an idle pass: it tests, under the lock a
 * registration takes, whether it may exit. An error thrown there (an {@link OutOfMemoryError}
 * while it waits for that lock) was outside the catches that keep a failed look or a failed read
 * of the registered pools from ending the watch thread: the thread ended, stayed recorded as the
 * watch, so no pool built later started another, and no pool in the JVM was relieved again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationWatchSurvivesAFailedIdlePassTest {

    /** Before: the pool that starved after the failed pass was never relieved (its outcome timed out). */
    @Test
    void anErrorInAnIdlePassLeavesTheWatchRunning() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("failed-idle-pass").build();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        CountDownLatch thrown = new CountDownLatch(1);
        StarvationWatch.beforeIdlePass = () -> {
            if (failOnce.compareAndSet(true, false)) {
                thrown.countDown();
                throw new OutOfMemoryError("no memory to wait for the registration lock (thrown by the test)");
            }
        };
        try {
            // the pool is idle, its one worker parked: the watch's next pass is an idle one
            assertThat(thrown.await(30, TimeUnit.SECONDS)).as("the watch made an idle pass").isTrue();
            StarvationWatch.beforeIdlePass = null;
            // the one worker waits untimed, unseen by the pool, for a task queued behind it
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
            assertThat(outer).as("the starving pool is relieved after the failed idle pass")
                    .succeedsWithin(Duration.ofSeconds(10)).isEqualTo(42);
        } finally {
            StarvationWatch.beforeIdlePass = null;
            pool.shutdownNow();
        }
    }
}
