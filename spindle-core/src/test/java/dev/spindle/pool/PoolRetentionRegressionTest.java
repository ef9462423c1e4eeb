/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Retention defects found by review (session 28), each test failing before its fix: something
 * that lives on grew with every operation, or kept what a finished operation left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolRetentionRegressionTest {

    /** A payload whose collection the tests watch. */
    static final class Payload {
        final byte[] bytes = new byte[1 << 20];
    }


    /**
     * A worker records the task it runs in {@code current} and, to spare the hot path a
     * reference store, does not clear it after a top-level task: a worker that then went idle
     * kept its last task, and the task's result, reachable for as long as it stayed idle.
     */
    @Test
    void anIdleWorkerDoesNotKeepItsLastTasksResult() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Task<Payload> task = pool.spawn(Payload::new);
            WeakReference<Payload> result = new WeakReference<>(task.get(10, TimeUnit.SECONDS));
            assertThat(result.get()).isNotNull();
            task = null;
            assertThat(Gc.collected(result)).as("the result of a finished task nobody holds").isTrue();
        }
    }

    /** {@code n} timed gets of {@code micros} each, all timing out, on {@code task}; {@code n}. */
    private static int timedGets(ForkTask<?> task, int n, long micros) throws Exception {
        for (int i = 0; i < n; i++) {
            try {
                task.get(micros, TimeUnit.MICROSECONDS);
            } catch (TimeoutException expected) {
                // the task is still running
            }
        }
        return n;
    }

    /**
     * A {@code get(timeout)} that times out left its wait node on the task's waiter stack (its
     * thread cleared), to be dropped only when the task completed: a monitor polling a
     * long-running task with short timed gets grew the stack by a node per poll, without bound.
     */
    @Test
    void timedOutGetsFromOutsideDoNotPileUpOnALongTask() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            ForkTask<String> task = (ForkTask<String>) pool.spawn(() -> {
                release.await();
                return "done";
            });
            try {
                timedGets(task, 10_000, 1);
                assertThat(task.waiterCount()).as("wait nodes left by 10,000 timed-out gets").isLessThanOrEqualTo(2);
            } finally {
                release.countDown();           // else close() waits for the task for good
            }
            assertThat(task.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        }
    }

    /** As above, with the gets made by another task of the pool (they help while they wait). */
    @Test
    void timedOutGetsFromAWorkerDoNotPileUpOnALongTask() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            ForkTask<String> task = (ForkTask<String>) pool.spawn(() -> {
                started.countDown();
                release.await();
                return "done";
            });
            try {
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue(); // so the poller cannot run it inline
                ForkTask<Integer> poller = (ForkTask<Integer>) pool.spawn(() -> timedGets(task, 2_000, 100));
                assertThat(poller.get(10, TimeUnit.SECONDS)).isEqualTo(2_000);
                assertThat(task.waiterCount()).as("wait nodes left by 2,000 timed-out gets").isLessThanOrEqualTo(2);
            } finally {
                release.countDown();           // else close() waits for the task for good
            }
            assertThat(task.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        }
    }
}
