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
 * A worker that begins a round arms the starvation watch: it puts its pool in the watched list
 * and, the first time, makes the watch thread. Only an {@link OutOfMemoryError} from starting
 * that thread was caught; one from making it, or from growing the list, escaped into the
 * worker's loop and ended the worker's thread, and left the pool marked armed though nothing
 * watched it, so it was never armed, nor relieved, again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationWatchArmingThatFailsTest {

    /** Before: the pool's only worker had ended (it never parked after the failed arming), and nothing ran. */
    @Test
    void anErrorWhileArmingLeavesTheWorkerRunningAndThePoolWatchable() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        CountDownLatch thrown = new CountDownLatch(1);
        StarvationWatch.beforeArm = () -> {
            if (failOnce.compareAndSet(true, false)) {
                thrown.countDown();
                throw new OutOfMemoryError("no room to arm the watch (thrown by the test)");
            }
        };
        WorkStealingPool pool;
        try {
            pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1).name("failed-arm").build();
            assertThat(thrown.await(30, TimeUnit.SECONDS)).as("the worker armed the watch").isTrue();
        } finally {
            StarvationWatch.beforeArm = null;
        }
        try {
            // the failed arming leaves the pool unarmed until its worker begins another round,
            // after its next park: wait for that park (a worker whose thread ended never parks)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.stats().parkedWorkers() == 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertThat(pool.stats().parkedWorkers()).as("the worker went on, and parked, after the failed arming")
                    .isEqualTo(1);
            // the one worker waits untimed, unseen by the pool, for a task queued behind it
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
            assertThat(outer).as("the pool runs its tasks, and is relieved when it starves")
                    .succeedsWithin(Duration.ofSeconds(10)).isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }
}
