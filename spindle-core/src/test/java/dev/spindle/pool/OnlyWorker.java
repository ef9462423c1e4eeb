/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Test fixture for a pool of one worker (and no spare that could take a queued task): holds that
 * worker so that what is given to the pool next waits in its queue.
 */
final class OnlyWorker {

    private OnlyWorker() {
    }

    /**
     * Keeps the only worker of {@code pool} busy until the returned latch is counted down (or the
     * worker is interrupted, as by {@code shutdownNow}).
     */
    static CountDownLatch occupy(ExecutorService pool) throws InterruptedException {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            busy.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    /**
     * A short {@code get} of {@code queued}, given to the pool while its worker is held: it may
     * only wait and time out (or, had something else run it, return), never throw that nothing
     * will run the task.
     */
    static void assertAGetWaitsWhileQueued(Future<?> queued) {
        Throwable early = catchThrowable(() -> queued.get(50, TimeUnit.MILLISECONDS));
        assertThat(early).as("a get while the task is queued").satisfiesAnyOf(
                e -> assertThat(e).isNull(),
                e -> assertThat(e).isInstanceOf(TimeoutException.class));
    }
}
