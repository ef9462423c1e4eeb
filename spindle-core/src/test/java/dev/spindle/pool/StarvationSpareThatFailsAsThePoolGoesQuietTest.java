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
 * A spare that the starvation watch asks for counts as live before its thread is made; if the
 * thread factory then fails, the count is taken back. A graceful shutdown ends once every live
 * worker is parked, a test made when a worker parks: the last worker that parked while the
 * failing start counted the spare found one worker missing, and nothing looked again once the
 * count was taken back. The pool never terminated, and {@code awaitTermination} and
 * {@code close()} waited for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationSpareThatFailsAsThePoolGoesQuietTest {

    @Test
    void aShutDownPoolTerminatesWhenTheSpareStartedForItFails() throws Exception {
        CountDownLatch factoryEntered = new CountDownLatch(1);
        CountDownLatch factoryReleased = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("failing-spare-factory").threadFactory(r -> {
                    if (calls.getAndIncrement() == 0) {
                        return new Thread(r);          // the core worker's
                    }
                    factoryEntered.countDown();        // a spare's, asked for by the watch
                    try {
                        factoryReleased.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IllegalStateException("no thread for a spare");
                }).build();
        CountDownLatch waitReleased = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                try {
                    waitReleased.await();              // untimed, unseen by the pool: it starves
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            pool.execute(queuedRan::countDown);        // queued behind the waiting worker
            assertThat(factoryEntered.await(30, TimeUnit.SECONDS))
                    .as("the watch asked the factory for a spare").isTrue();

            // while the spare's start is in the factory: the pool shuts down, its worker's wait
            // ends, it runs the queued task and parks, finding the pool not yet quiet
            pool.shutdown();
            waitReleased.countDown();
            assertThat(queuedRan.await(30, TimeUnit.SECONDS)).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.stats().parkedWorkers() < 1 && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertThat(pool.stats().parkedWorkers()).as("the worker parked: %s", pool.stats()).isEqualTo(1);
        } finally {
            factoryReleased.countDown();              // the spare's start fails now
        }
        assertThat(pool.awaitTermination(20, TimeUnit.SECONDS))
                .as("the shut-down pool terminated after the failed spare start: %s", pool)
                .isTrue();
        assertThat(pool.stats().liveWorkers()).isZero();
    }
}
