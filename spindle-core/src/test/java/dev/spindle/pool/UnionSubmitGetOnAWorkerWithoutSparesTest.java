/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code union.submit(inner).get()} in a task of a work-stealing member 0 that has one worker and
 * no spare workers: the inner task is queued on that worker, behind the waiting task. The pool's
 * own {@code submit(inner).get()} helps there (it runs the inner task); the union's future waited
 * as a blocking section, for which such a pool has no spare to start, and never returned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnionSubmitGetOnAWorkerWithoutSparesTest {

    @Test
    void aTaskOfTheOnlyWorkerGetsWhatItSubmittedThroughTheUnion() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        SchedulerUnion union = SchedulerUnion.of(pool);
        try {
            Future<Integer> outer = pool.submit(() -> {
                Future<Integer> inner = union.submit(() -> 41);
                return inner.get() + 1;
            });
            assertThat(outer.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(union.routedCounts()).containsExactly(1L);
        } finally {
            pool.shutdownNow();                // interrupts the worker stuck in the inner get
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aRunnableSubmittedThroughTheUnionIsGotTheSameWay() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        SchedulerUnion union = SchedulerUnion.of(pool);
        try {
            Future<String> outer = pool.submit(() -> {
                StringBuilder ran = new StringBuilder();
                Future<StringBuilder> inner = union.submit(() -> ran.append("ran"), ran);
                return inner.get(5, TimeUnit.SECONDS).toString();
            });
            assertThat(outer.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
