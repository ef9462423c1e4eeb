/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * invokeAny from a worker of a pool with shared queues, a priority queue or pinned workers, left
 * as found by session 34 and fixed in session 36: it ran its tasks one after another without
 * looking whether the pool had been stopped, so a task that swallowed shutdownNow's interrupt and
 * failed let the next task start in a pool that had promised to start no more. Failed before the
 * fix for each pool. (WorkStealingPool's invokeAny already stopped; it is checked alongside.)
 *
 * <p>WorkStealingPool's invokeAny from a worker is {@code AbstractExecutorService}'s: it submits
 * the second task as soon as it finds the first unfinished, so when the first task's
 * {@code shutdownNow} comes before that submit, the submit is refused and invokeAny throws
 * {@link RejectedExecutionException}, as {@code ExecutorService.invokeAny} documents for a task
 * that cannot be scheduled; otherwise its wait is interrupted. Either way the caller is told and
 * the second task never starts. Expecting only the interrupt made this test fail in CI about
 * once in many runs (session 38).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvokeAnyStopRegressionTest {

    @Test
    void invokeAnyStartsNoTaskAfterShutdownNowOnAnyPool() throws Exception {
        List<Supplier<ExecutorService>> pools = List.of(
                () -> WorkSharingPool.builder().workers(1).build(),
                () -> PriorityPool.builder().workers(1).build(),
                () -> PinnedPool.builder().workers(1).build(),
                () -> WorkStealingPool.builder().workers(1).build());
        for (Supplier<ExecutorService> make : pools) {
            ExecutorService pool = make.get();
            AtomicBoolean secondStarted = new AtomicBoolean();
            try {
                Future<Object> outcome = pool.submit(() -> {
                    try {
                        return pool.invokeAny(List.<Callable<String>>of(
                                () -> {
                                    pool.shutdownNow();
                                    Thread.interrupted();      // swallowed, as careless code does
                                    throw new IllegalStateException("first task fails");
                                },
                                () -> {
                                    secondStarted.set(true);
                                    return "second";
                                }));
                    } catch (Exception e) {
                        return e;
                    }
                });
                Object ended = outcome.get(10, TimeUnit.SECONDS);
                if (pool instanceof WorkStealingPool) {
                    assertThat(ended).as("%s", pool).isInstanceOfAny(InterruptedException.class,
                            RejectedExecutionException.class);
                } else {                       // invokeAnyHere: the tasks run here, in order
                    assertThat(ended).as("%s", pool).isInstanceOf(InterruptedException.class);
                }
                assertThat(secondStarted).as("a task started after shutdownNow on %s", pool).isFalse();
            } finally {
                pool.shutdownNow();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }
}
