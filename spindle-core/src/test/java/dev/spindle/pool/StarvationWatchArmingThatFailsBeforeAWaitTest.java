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
 * An arming of the starvation watch that failed (an {@link OutOfMemoryError} while the pool was
 * put in the watched list, or while the watch thread was started) left the pool unarmed, for the
 * worker's next round to arm. But a round that then runs a task waiting, unseen by the pool, for
 * work queued behind it does not end: with every worker waiting so, no round began again, nothing
 * armed the pool, and it hung for good. Arming is now the pool's flag alone, which the watch reads
 * whether or not the wake-up that follows it arrived; what can fail is done when the pool is
 * built.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationWatchArmingThatFailsBeforeAWaitTest {

    /** Before: the outer task never completed (the pool's only worker waited for good). */
    @Test
    void aRoundWhoseArmingFailedAndThatThenWaitsIsStillRelieved() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("failed-arm-then-wait").build();
        try {
            // the worker parks, and the watch drops the pool (a parked core worker: not starving)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((pool.stats().parkedWorkers() == 0 || StarvationWatch.isWatched(pool))
                    && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertThat(pool.stats().parkedWorkers()).as("the worker parked").isEqualTo(1);
            assertThat(StarvationWatch.isWatched(pool)).as("the watch dropped the idle pool").isFalse();

            AtomicBoolean failOnce = new AtomicBoolean(true);
            CountDownLatch thrown = new CountDownLatch(1);
            StarvationWatch.beforeArm = () -> {
                if (Thread.currentThread().getName().startsWith("failed-arm-then-wait")
                        && failOnce.compareAndSet(true, false)) {
                    thrown.countDown();
                    throw new OutOfMemoryError("no room to arm the watch (thrown by the test)");
                }
            };
            // the woken worker's round arms the watch (and fails), then runs this task, which
            // waits untimed, unseen by the pool, for a task queued behind it on the same worker
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
            assertThat(thrown.await(30, TimeUnit.SECONDS)).as("the woken worker armed the watch").isTrue();
            assertThat(outer).as("the pool is relieved though the arming failed")
                    .succeedsWithin(Duration.ofSeconds(20)).isEqualTo(42);
        } finally {
            StarvationWatch.beforeArm = null;
            pool.shutdownNow();
        }
    }
}
