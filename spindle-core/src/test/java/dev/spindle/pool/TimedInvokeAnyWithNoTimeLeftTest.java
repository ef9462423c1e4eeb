/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timed invokeAny with no time left (a timeout of 0 or less) called from a worker of a pool
 * that runs the tasks on that worker threw {@link java.util.concurrent.TimeoutException} without
 * starting any task. {@code ExecutorService.invokeAny} as the JDK implements it starts its first
 * task before it looks at the time, so a caller that passes the time it has left (0 once it is
 * spent) still gets a task tried; here a task that would have succeeded at once never ran.
 * Failed before the fix for each pool, with the TimeoutException as the outcome.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimedInvokeAnyWithNoTimeLeftTest {

    @Test
    void theFirstTaskRunsWhateverTheTimeout() throws Exception {
        List<Supplier<ExecutorService>> pools = List.of(
                () -> WorkSharingPool.builder().workers(1).build(),
                () -> PriorityPool.builder().workers(1).build(),
                () -> PinnedPool.builder().workers(1).build(),
                () -> WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build(),
                () -> SchedulerUnion.owning(WorkSharingPool.builder().workers(1).build()));
        for (Supplier<ExecutorService> make : pools) {
            for (long timeout : new long[] {0L, -1L, Long.MIN_VALUE}) {
                ExecutorService pool = make.get();
                AtomicInteger started = new AtomicInteger();
                try {
                    Future<Object> outcome = pool.submit(() -> {
                        try {
                            return pool.invokeAny(List.<Callable<String>>of(() -> {
                                started.incrementAndGet();
                                return "first";
                            }, () -> {
                                started.incrementAndGet();
                                return "second";
                            }), timeout, TimeUnit.NANOSECONDS);
                        } catch (Exception e) {
                            return e;
                        }
                    });
                    assertThat(outcome.get(10, TimeUnit.SECONDS)).as("%s, timeout %d", pool, timeout)
                            .isEqualTo("first");
                    assertThat(started).as("tasks started on %s", pool).hasValue(1);
                } finally {
                    pool.shutdownNow();
                    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                }
            }
        }
    }

    /** After the first task failed, the timeout is looked at before the next one starts, as before. */
    @Test
    void noLaterTaskStartsOnceTheTimeIsSpent() throws Exception {
        List<Supplier<ExecutorService>> pools = List.of(
                () -> WorkSharingPool.builder().workers(1).build(),
                () -> WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build());
        for (Supplier<ExecutorService> make : pools) {
            ExecutorService pool = make.get();
            AtomicInteger secondStarted = new AtomicInteger();
            try {
                Future<Object> outcome = pool.submit(() -> {
                    try {
                        return pool.invokeAny(List.<Callable<String>>of(() -> {
                            throw new IllegalStateException("first task fails");
                        }, () -> {
                            secondStarted.incrementAndGet();
                            return "second";
                        }), 0L, TimeUnit.NANOSECONDS);
                    } catch (Exception e) {
                        return e;
                    }
                });
                assertThat(outcome.get(10, TimeUnit.SECONDS)).as("%s", pool)
                        .isInstanceOf(java.util.concurrent.TimeoutException.class);
                assertThat(secondStarted).as("%s", pool).hasValue(0);
            } finally {
                pool.shutdownNow();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }
}
