/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.SchedulerUnionExecuteWhoseCountFailsTest.FailingOnce;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Called from a worker of member 0, {@link SchedulerUnion#invokeAll(java.util.Collection)} and
 * {@code invokeAny} are that pool's own, with each task wrapped to count itself as routed when it
 * starts. The count is a {@link java.util.concurrent.atomic.LongAdder}, whose add under
 * contention allocates a cell (an {@link OutOfMemoryError} on a full heap): the wrapper counted
 * before it ran the task, so a failed add kept the task from running and failed its future over
 * a statistic. Now the task runs, and the count is kept all the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionOwnInvokeWhoseCountFailsTest {

    @Test
    void aTaskWhoseCountFailsRunsAndIsCounted() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
                SchedulerUnion union = SchedulerUnion.of(pool)) {
            FailingOnce count = new FailingOnce();
            union.routed[0] = count;
            AtomicInteger runs = new AtomicInteger();
            Callable<String> task = () -> {
                runs.incrementAndGet();
                return "ran";
            };
            // on the pool's worker, so the union hands the tasks to the pool's own invokeAll
            List<Future<String>> futures = pool.submit(() -> union.invokeAll(List.of(task))).get(30, TimeUnit.SECONDS);
            assertThat(count.armed).as("the count failed once").isFalse();
            // before: the future failed with the count's OutOfMemoryError, the task not run
            assertThat(runs).as("runs of the task").hasValue(1);
            assertThat(futures.get(0).get(30, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(union.routedCounts()).as("the failed add is counted all the same").containsExactly(1L);

            String any = pool.submit(() -> union.invokeAny(List.of(task))).get(30, TimeUnit.SECONDS);
            assertThat(any).isEqualTo("ran");
            assertThat(union.routedCounts()).containsExactly(2L);
        }
    }
}
