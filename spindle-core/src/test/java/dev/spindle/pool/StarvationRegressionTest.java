/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every worker of a work-stealing pool waits inside a task, where the pool cannot see it, for work
 * queued behind it: the commonest form is {@code CompletableFuture.supplyAsync(x, pool).join()}
 * inside a task of {@code pool}. A {@code ForkJoinPool} completes these (its
 * {@code managedBlock} compensates); this pool hung on one worker, and on any number of workers
 * once as many tasks waited as there were workers. The starvation watch now starts a spare.
 */
class StarvationRegressionTest {

    @Test
    void aOneWorkerPoolCompletesACompletableFutureItsTaskJoins() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        try {
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void moreJoiningTasksThanWorkersAllComplete() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        try {
            List<CompletableFuture<Integer>> outers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int v = i;
                outers.add(CompletableFuture.supplyAsync(
                        () -> CompletableFuture.supplyAsync(() -> v, pool).join() * 10, pool));
            }
            int sum = 0;
            for (CompletableFuture<Integer> f : outers) {
                sum += f.get(30, TimeUnit.SECONDS);
            }
            assertThat(sum).isEqualTo(280);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every worker waits on a latch that only a task queued behind them counts down. */
    @Test
    void workersWaitingOnALatchForAQueuedTaskAreRelieved() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        try {
            CountDownLatch latch = new CountDownLatch(1);
            CountDownLatch bothWaiting = new CountDownLatch(2);
            List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                waiters.add(CompletableFuture.supplyAsync(() -> {
                    bothWaiting.countDown();
                    try {
                        latch.await();         // untimed: only the queued task ends it
                        return true;
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            assertThat(bothWaiting.await(30, TimeUnit.SECONDS)).isTrue();
            pool.execute(latch::countDown);
            for (CompletableFuture<Boolean> w : waiters) {
                assertThat(w.get(60, TimeUnit.SECONDS)).as("the latch was counted down").isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A task that computes (its thread runnable) or sleeps (a wait that ends by itself) holds its
     * worker as long as it likes: the watch starts no spare for it, and the task queued behind it
     * runs on the same worker after.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aComputingOrSleepingTaskGetsNoSpare(boolean sleeps) throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        try {
            AtomicBoolean holding = new AtomicBoolean(true);
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> {
                started.countDown();
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                for (long left; (left = end - System.nanoTime()) > 0; ) {
                    if (sleeps) {
                        LockSupport.parkNanos(left);
                    } else {
                        Thread.onSpinWait();
                    }
                }
                holding.set(false);
                return Thread.currentThread().getName();
            }, pool);
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<String> behind = CompletableFuture.supplyAsync(() -> {
                assertThat(holding.get()).as("ran only after the task that held the worker").isFalse();
                return Thread.currentThread().getName();
            }, pool);
            assertThat(behind.get(30, TimeUnit.SECONDS)).isEqualTo(holder.get(30, TimeUnit.SECONDS));
            assertThat(pool.stats().liveWorkers()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    /** With no spares allowed the pool keeps exactly its workers: nothing is started. */
    @Test
    void aPoolWithoutSparesStaysAtItsWorkers() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        try {
            CountDownLatch release = OnlyWorker.occupy(pool);
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertThat(ran.await(200, TimeUnit.MILLISECONDS)).as("ran beside the waiting task").isFalse();
            release.countDown();
            assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.stats().liveWorkers()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
