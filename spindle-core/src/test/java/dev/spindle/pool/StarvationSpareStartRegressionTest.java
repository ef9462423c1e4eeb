/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The starvation watch is one thread for every pool in the JVM: one pool's thread factory must
 * not keep it from relieving the others.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationSpareStartRegressionTest {

    /**
     * Starves a one-worker pool: its only worker waits untimed on a latch that a task queued
     * behind it counts down; only a spare can run that task.
     *
     * @return the latch the queued task counts down
     */
    private static CountDownLatch starve(WorkStealingPool pool, CountDownLatch started) {
        CountDownLatch queuedRan = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                queuedRan.await();             // untimed, unseen by the pool
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        pool.execute(queuedRan::countDown);
        return queuedRan;
    }

    /**
     * The watch called the thread factory of a starving pool on its own JVM-wide thread (under
     * that pool's spare lock): a factory that blocked held the watch, and a second pool that
     * starved meanwhile was never given a spare, and hung.
     */
    @Test
    void aBlockingThreadFactoryOfOnePoolDoesNotStallTheRescueOfAnother() throws Exception {
        CountDownLatch factoryEntered = new CountDownLatch(1);
        CountDownLatch factoryReleased = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        WorkStealingPool blocked = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("blocking-factory").threadFactory(r -> {
                    if (calls.getAndIncrement() > 0) {     // a spare's: the core worker's came first
                        factoryEntered.countDown();
                        try {
                            factoryReleased.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return new Thread(r);
                }).build();
        WorkStealingPool other = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("starving-other").build();
        try {
            CountDownLatch blockedStarted = new CountDownLatch(1);
            CountDownLatch blockedQueuedRan = starve(blocked, blockedStarted);
            assertThat(factoryEntered.await(30, TimeUnit.SECONDS))
                    .as("the watch asked the blocking factory for a spare").isTrue();

            CountDownLatch otherStarted = new CountDownLatch(1);
            CountDownLatch otherQueuedRan = starve(other, otherStarted);
            assertThat(otherStarted.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(otherQueuedRan.await(10, TimeUnit.SECONDS))
                    .as("the second pool got a spare while the first pool's factory blocked: %s", other.stats())
                    .isTrue();

            factoryReleased.countDown();
            assertThat(blockedQueuedRan.await(30, TimeUnit.SECONDS))
                    .as("the first pool got its spare once its factory returned: %s", blocked.stats())
                    .isTrue();
        } finally {
            factoryReleased.countDown();
            blocked.shutdownNow();
            other.shutdownNow();
        }
        assertThat(blocked.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(other.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
}
