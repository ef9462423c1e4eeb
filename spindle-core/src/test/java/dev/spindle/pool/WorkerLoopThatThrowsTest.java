/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@link Error} thrown by a worker's loop itself, outside any task (an
 * {@link OutOfMemoryError} there), ended the worker's thread. Its pool still counted it among the
 * workers a graceful shutdown waits to see parked ({@code AbstractPool.liveWorkers}), so
 * {@code shutdown} never terminated the pool ({@code close} waited for good), and a
 * {@link PinnedPool}'s tasks pinned to that worker never ran. Now the worker reports the error to
 * the uncaught-exception handler and goes on; a {@link WorkStealingPool}'s worker too, which
 * its pool counted as live ({@code Spares.live}) in the same way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerLoopThatThrowsTest {

    @AfterEach
    void clearSeam() {
        AbstractPool.beforeIdle = null;
        Worker.beforePark = null;
    }

    /** Arms the seam to throw once, on the first worker to go idle; counts down {@code thrown} with its index. */
    private static void failOnceAsAWorkerGoesIdle(AtomicInteger failedIndex, CountDownLatch thrown) {
        AtomicBoolean armed = new AtomicBoolean(true);
        AbstractPool.beforeIdle = () -> {
            if (armed.compareAndSet(true, false)) {
                failedIndex.set(PoolCore.workerOfCurrentThread().index);
                thrown.countDown();
                throw new OutOfMemoryError("the worker loop failed (thrown by the test)");
            }
        };
    }

    /** Before: awaitTermination returned false; the pool never terminated. */
    @Test
    void aPriorityPoolStillTerminatesAfterShutdown() throws Exception {
        AtomicInteger failedIndex = new AtomicInteger(-1);
        CountDownLatch thrown = new CountDownLatch(1);
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        failOnceAsAWorkerGoesIdle(failedIndex, thrown);
        PriorityPool pool = PriorityPool.builder().workers(2).name("loop-oom-prio")
                .uncaughtExceptionHandler((t, e) -> reported.add(e)).build();
        try {
            assertThat(thrown.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated after shutdown").isTrue();
            assertThat(reported).as("the loop's failure reported")
                    .anySatisfy(e -> assertThat(e).isInstanceOf(OutOfMemoryError.class));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Before: awaitTermination returned false (a pool with a watcher, whose parks go through it). */
    @Test
    void aWorkSharingPoolStillTerminatesAfterShutdown() throws Exception {
        AtomicInteger failedIndex = new AtomicInteger(-1);
        CountDownLatch thrown = new CountDownLatch(1);
        failOnceAsAWorkerGoesIdle(failedIndex, thrown);
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("loop-oom-sharing")
                .uncaughtExceptionHandler((t, e) -> { }).build();
        try {
            assertThat(thrown.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch ran = new CountDownLatch(4);
            for (int i = 0; i < 4; i++) {
                pool.execute(ran::countDown);
            }
            assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated after shutdown").isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    /** Before: awaitTermination returned false; the pool never terminated. */
    @Test
    void aWorkStealingPoolStillTerminatesAfterShutdown() throws Exception {
        AtomicBoolean armed = new AtomicBoolean(true);
        CountDownLatch thrown = new CountDownLatch(1);
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Worker.beforePark = () -> {
            if (armed.compareAndSet(true, false)) {
                thrown.countDown();
                throw new OutOfMemoryError("the worker loop failed (thrown by the test)");
            }
        };
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("loop-oom-stealing")
                .uncaughtExceptionHandler((t, e) -> reported.add(e)).build();
        try {
            assertThat(thrown.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.invoke(() -> 42)).isEqualTo(42);
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated after shutdown").isTrue();
            assertThat(reported).as("the loop's failure reported")
                    .anySatisfy(e -> assertThat(e).isInstanceOf(OutOfMemoryError.class));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Before: the task pinned to the failed worker never ran ({@code ran.await} returned false). */
    @Test
    void aPinnedPoolStillRunsTheFailedWorkersTasks() throws Exception {
        AtomicInteger failedIndex = new AtomicInteger(-1);
        CountDownLatch thrown = new CountDownLatch(1);
        failOnceAsAWorkerGoesIdle(failedIndex, thrown);
        PinnedPool pool = PinnedPool.builder().workers(2).name("loop-oom-pinned")
                .uncaughtExceptionHandler((t, e) -> { }).build();
        try {
            assertThat(thrown.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown, Hints.DEFAULT.withWorkerIndex(failedIndex.get()));
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("the pinned task ran").isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated after shutdown").isTrue();
        } finally {
            pool.shutdownNow();
        }
    }
}
