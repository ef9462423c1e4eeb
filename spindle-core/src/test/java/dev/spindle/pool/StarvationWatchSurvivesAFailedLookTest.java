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
 * The starvation watch is one thread for every pool in the JVM. An error thrown while it looked
 * at one pool (here from the {@code getState} of a thread that pool's factory made; an
 * {@link OutOfMemoryError} does the same) ended that thread, and as the ended thread was still
 * recorded as the watch, no other was started: no pool in the JVM was relieved again, and every
 * pool armed then stayed in the watched list for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationWatchSurvivesAFailedLookTest {

    /** Starves a one-worker pool: its worker waits untimed for a task queued behind it. */
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

    /** Before: the failing pool and a pool that starved later both hung (the waits timed out). */
    @Test
    void anErrorInOneLookLeavesEveryPoolWatched() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        CountDownLatch thrown = new CountDownLatch(1);
        WorkStealingPool failing = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("failing-look").threadFactory(r -> new Thread(r) {
                    @Override
                    public State getState() {
                        if (failOnce.compareAndSet(true, false)) {
                            thrown.countDown();
                            throw new Error("getState failed once");
                        }
                        return super.getState();
                    }
                }).build();
        WorkStealingPool later = WorkStealingPool.builder().workers(1).maxSpareWorkers(1).name("later").build();
        try {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch failingRelieved = starve(failing, started);
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(thrown.await(30, TimeUnit.SECONDS)).as("the watch looked at the failing pool").isTrue();

            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, later).join() + 1, later);
            assertThat(outer).as("a pool that starves afterwards is relieved").succeedsWithin(Duration.ofSeconds(10))
                    .isEqualTo(42);
            assertThat(failingRelieved.await(10, TimeUnit.SECONDS))
                    .as("the pool whose look failed once is relieved at a later look").isTrue();
        } finally {
            failing.shutdownNow();
            later.shutdownNow();
        }
    }
}
