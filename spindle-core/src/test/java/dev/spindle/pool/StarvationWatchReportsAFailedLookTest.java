/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An error thrown while the starvation watch looked at a pool (here from the {@code getState} of
 * a thread the pool's factory made) was caught so that the watch went on, and then dropped: the
 * pool's uncaught-exception handler never heard of it, so a pool whose looks kept failing was
 * never relieved and nobody was told why.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationWatchReportsAFailedLookTest {

    /** Before: the handler was never called (the wait for it timed out). */
    @Test
    void anErrorInALookGoesToThePoolsHandler() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        Error thrownByLook = new Error("getState failed once");
        AtomicReference<Throwable> reported = new AtomicReference<>();
        CountDownLatch handled = new CountDownLatch(1);
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("reported-look")
                .uncaughtExceptionHandler((t, e) -> {
                    reported.compareAndSet(null, e);
                    handled.countDown();
                })
                .threadFactory(r -> new Thread(r) {
                    @Override
                    public State getState() {
                        if (failOnce.compareAndSet(true, false)) {
                            throw thrownByLook;
                        }
                        return super.getState();
                    }
                }).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                started.countDown();
                try {
                    queuedRan.await();         // untimed, unseen by the pool: the watch looks
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            pool.execute(queuedRan::countDown);
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(handled.await(30, TimeUnit.SECONDS)).as("the failed look was reported").isTrue();
            assertThat(reported.get()).isSameAs(thrownByLook);
            assertThat(queuedRan.await(30, TimeUnit.SECONDS)).as("a later look relieved the pool").isTrue();
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
