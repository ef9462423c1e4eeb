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
 * The starvation watch of a pool whose spares cannot be started: it must not start a starter
 * thread (and call the failing factory) on every look for as long as the pool starves.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationBackoffRegressionTest {

    /**
     * A one-worker pool whose thread factory throws for every spare, starved for good (its
     * worker waits untimed for a task queued behind it). Each look of the watch (every 20 ms)
     * started a 'spindle-starvation-spare-start' thread that called the factory, which threw,
     * and the next look did it again: about 50 threads and factory calls a second, forever.
     * After failed starts the watch must back off; over two seconds a few calls are enough to
     * notice a factory that recovers.
     */
    @Test
    void aFactoryThatAlwaysFailsIsNotCalledOnEveryLook() throws Exception {
        AtomicInteger spareCalls = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(4)
                .name("failing-spare-factory").threadFactory(r -> {
                    if (calls.getAndIncrement() > 0) {     // a spare's: the core worker's came first
                        spareCalls.incrementAndGet();
                        throw new IllegalStateException("no threads for spares");
                    }
                    return new Thread(r);
                }).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                started.countDown();
                try {
                    queuedRan.await();         // untimed, unseen by the pool: starves it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            pool.execute(queuedRan::countDown);
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (spareCalls.get() == 0) {
                assertThat(System.nanoTime() - end).as("the watch asked for a spare").isNegative();
                Thread.sleep(5);
            }
            int before = spareCalls.get();
            Thread.sleep(2_000);
            int during = spareCalls.get() - before;
            assertThat(during)
                    .as("spare starts tried in 2 s against a factory that always throws (one look is 20 ms)")
                    .isLessThan(20);
        } finally {
            queuedRan.countDown();
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
}
