/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkStealingPool;
import dev.spindle.queue.Injector;
import dev.spindle.queue.WorkStealingDeque;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the public API of spindle-core fails at the call, with the documented exception
 * and a message that names the parameter.
 */
class BadInputTest {

    @Test
    void submitOfNullNamesTheTask() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            assertThatThrownBy(() -> pool.submit((Runnable) null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
            assertThatThrownBy(() -> pool.submit((Callable<Object>) null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
            assertThatThrownBy(() -> pool.submit(null, "x"))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
        }
    }

    @Test
    void injectorOfferAllRejectsACountOutOfRange() {
        Injector<String> q = new Injector<>();
        assertThatThrownBy(() -> q.offerAll(new Object[] {"a", "b"}, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n");
        assertThatThrownBy(() -> q.offerAll(new Object[] {"a", "b"}, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n");
        assertThatThrownBy(() -> q.offerAll(null, 0))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("elements");
    }

    @Test
    void dequeTakeOldestRejectsANegativeMax() {
        WorkStealingDeque<String> d = new WorkStealingDeque<>();
        d.push("a");
        assertThatThrownBy(() -> d.takeOldest(new Object[1], -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max");
        assertThatThrownBy(() -> d.takeOldest(null, 1))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("out");
    }

    @Test
    void dequeStealBatchIntoNullNamesTheDestination() {
        WorkStealingDeque<String> d = new WorkStealingDeque<>();
        assertThatThrownBy(() -> d.stealBatch(null, 1))       // empty: still refused
                .isInstanceOf(NullPointerException.class).hasMessageContaining("dest");
        d.push("a");
        assertThatThrownBy(() -> d.stealBatchOrNull(null, 1))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("dest");
    }

    // ---- regression guards

    @Test
    void buildersRejectOutOfRangeValues() {
        assertThatThrownBy(() -> WorkStealingPool.builder().workers(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> WorkStealingPool.builder().spareKeepAlive(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spareKeepAlive");
        assertThatThrownBy(() -> WorkStealingPool.builder().localQueueCapacity(1 << 25))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("localQueueCapacity");
        assertThatThrownBy(() -> Hints.DEFAULT.withSchedulerIndex(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex");
    }

    @Test
    void executeAfterShutdownAndOutOfRangeUnionIndexAreRefused() {
        PinnedPool pool = PinnedPool.builder().workers(1).build();
        SchedulerUnion union = SchedulerUnion.of(pool);
        assertThatThrownBy(() -> union.execute(() -> { }, Hints.DEFAULT.withSchedulerIndex(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex");
        pool.close();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("task");
    }
}
