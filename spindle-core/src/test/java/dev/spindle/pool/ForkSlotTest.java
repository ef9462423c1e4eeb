/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fork slot of {@link Worker}: a worker's newest fork task is kept out of its deque, but it
 * stays visible to idle workers, its order is the deque's, and {@code shutdownNow} does not lose
 * it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForkSlotTest {

    /**
     * The only queued task sits in the fork slot while its owner waits (without declaring a
     * blocking section) for that very task: an idle worker must take it from the slot. Were the
     * slot hidden from thieves, this would hang until the timeout.
     */
    @RepeatedTest(20)
    void anIdleWorkerTakesTheSlotTaskOfABusyOwner() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            CountDownLatch ran = new CountDownLatch(1);
            AtomicReference<String> ranOn = new AtomicReference<>();
            String owner = pool.invoke(() -> {
                pool.spawn(() -> {
                    ranOn.set(Thread.currentThread().getName());
                    ran.countDown();
                    return null;
                });
                // not a join: the owner just waits, so only a thief can run the task
                if (!ran.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the slot task was never taken by the idle worker");
                }
                return Thread.currentThread().getName();
            });
            assertThat(ranOn.get()).isNotEqualTo(owner);
        }
    }

    /** Runnables and fork tasks pushed by one worker run newest first, as one deque would. */
    @Test
    void mixedPushesKeepLifoOrderOnOneWorker() throws InterruptedException {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            StringBuffer order = new StringBuffer();
            CountDownLatch done = new CountDownLatch(4);
            pool.invoke(() -> {
                pool.spawn(() -> step(order, 'a', done));
                pool.execute(() -> step(order, 'b', done));
                pool.spawn(() -> step(order, 'c', done));
                pool.execute(() -> step(order, 'd', done));
                return null;
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(order.toString()).isEqualTo("dcba");
        }
    }

    private static Object step(StringBuffer order, char c, CountDownLatch done) {
        order.append(c);
        done.countDown();
        return null;
    }

    /**
     * shutdownNow from inside a task, with one task in the fork slot and others in the deque:
     * every task is either returned or run, exactly once.
     */
    @RepeatedTest(20)
    void shutdownNowNeitherLosesNorDuplicatesTheSlotTask() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        int n = 5;
        AtomicInteger[] runs = new AtomicInteger[n];
        AtomicReference<List<Runnable>> returned = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        pool.execute(() -> {
            for (int i = 0; i < n; i++) {
                AtomicInteger r = runs[i] = new AtomicInteger();
                pool.spawn(() -> r.incrementAndGet());
            }
            returned.set(pool.shutdownNow());
            stopped.countDown();
        });
        assertThat(stopped.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        int ranTotal = 0;
        for (AtomicInteger r : runs) {
            assertThat(r.get()).isBetween(0, 1);
            ranTotal += r.get();
        }
        for (Runnable r : returned.get()) {
            r.run();                           // the caller runs what was returned
        }
        for (AtomicInteger r : runs) {
            assertThat(r.get()).as("each task runs exactly once, by the pool or the caller").isEqualTo(1);
        }
        assertThat(returned.get()).hasSize(n - ranTotal);
    }

    /** The slot task is counted as queued in the stats. */
    @Test
    void statsCountTheSlotTask() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            long queued = pool.invoke(() -> {
                Task<Integer> t = pool.spawn(() -> 1);
                long q = pool.stats().queued();
                t.join();
                return q;
            });
            assertThat(queued).isEqualTo(1L);
        }
    }
}
