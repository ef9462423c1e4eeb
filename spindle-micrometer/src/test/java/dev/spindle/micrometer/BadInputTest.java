/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Scheduler;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

/** Regression guards: the binders refuse bad arguments at construction, naming them. */
class BadInputTest {

    @Test
    void bindersNameTheirBadArguments() {
        assertThatThrownBy(() -> SchedulerMetrics.of((Scheduler) null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("pool");
        assertThatThrownBy(() -> new ClusterMetrics(null, "c"))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("cluster");
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build()) {
            assertThatThrownBy(() -> SchedulerMetrics.of(pool, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("tags");
            assertThatThrownBy(() -> SchedulerMetrics.of(SchedulerUnion.of(pool)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ofUnion");
            assertThatThrownBy(() -> SchedulerMetrics.ofUnion(SchedulerUnion.of(pool), null, Tags.empty()))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("name");
        }
    }
}
