/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@link ComputeTask} is a {@code Runnable}, and once spawned in a work-stealing pool it may
 * still be given to another pool's {@code submit} (or the same pool's): it is queued, and will
 * run, in the pool that accepted it first; the future the second {@code submit} returns merely
 * runs it too if it gets there first. So cancelling that second future, or the second pool's
 * {@code shutdownNow} returning it, must not take the task from the pool that accepted it
 * first: that pool, still running, then skipped it (handed back) or dropped its value
 * (cancelled), and a {@code get} of the task waited for good or threw.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SubmitOfATaskQueuedElsewhereTest {

    private static PoolCore onePool(PoolKind kind) {
        return kind == PoolKind.STEALING
                ? WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build() : kind.create(1);
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void cancellingTheOtherPoolsFutureLeavesTheTaskToThePoolThatAcceptedItFirst(PoolKind kind) throws Exception {
        WorkStealingPool first = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        PoolCore second = onePool(kind);
        try {
            CountDownLatch releaseFirst = OnlyWorker.occupy(first);
            CountDownLatch releaseSecond = OnlyWorker.occupy(second);
            Value task = new Value();
            first.spawn(task);
            Future<?> again = second.submit(task);
            assertThat(again.cancel(false)).isTrue();
            releaseFirst.countDown();
            assertThat(task.get(10, TimeUnit.SECONDS)).as("the task its first pool accepted").isEqualTo("value");
            releaseSecond.countDown();
        } finally {
            second.shutdownNow();
            first.shutdownNow();
            assertThat(second.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(first.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void theOtherPoolsShutdownNowLeavesTheTaskToThePoolThatAcceptedItFirst(PoolKind kind) throws Exception {
        WorkStealingPool first = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        PoolCore second = onePool(kind);
        try {
            CountDownLatch releaseFirst = OnlyWorker.occupy(first);
            OnlyWorker.occupy(second);           // released by shutdownNow's interrupt
            Value task = new Value();
            first.spawn(task);
            Future<?> again = second.submit(task);
            List<Runnable> notStarted = second.shutdownNow();
            assertThat(notStarted).containsExactly((Runnable) again);
            releaseFirst.countDown();            // the first pool runs on
            assertThat(task.get(10, TimeUnit.SECONDS)).as("the task its first pool accepted").isEqualTo("value");
        } finally {
            second.shutdownNow();
            first.shutdownNow();
            assertThat(second.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(first.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** The same with the pool that made the task as the second pool: a second submit of its own task. */
    @org.junit.jupiter.api.Test
    void cancellingTheFutureOfASecondSubmitOfTheSameTaskLeavesItsFirstSubmitToRun() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        try {
            CountDownLatch release = OnlyWorker.occupy(pool);
            Value task = new Value();
            pool.spawn(task);
            Future<?> again = pool.submit(task);
            assertThat(again.cancel(false)).isTrue();
            release.countDown();
            assertThat(task.get(10, TimeUnit.SECONDS)).isEqualTo("value");
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static final class Value extends ComputeTask<String> {
        @Override
        protected String compute() {
            return "value";
        }
    }
}
