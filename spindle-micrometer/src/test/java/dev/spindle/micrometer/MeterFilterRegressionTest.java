/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A registry with a filter that renames meters (a common prefix, say): the binders' check for a
 * clash looked the registered meters up by the name they asked for, which the registry no longer
 * holds, so it saw no meter at all. A second live pool of one name silently shared the first's
 * meters, and a pool named like a collected one got the dead meters back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MeterFilterRegressionTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    MeterFilterRegressionTest() {
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.withName("app." + id.getName());
            }
        });
    }

    @Test
    void aSecondLivePoolWithTheSameNameIsRefusedUnderARenamingFilter() {
        try (WorkSharingPool first = WorkSharingPool.builder().workers(1).name("twin").build();
                WorkSharingPool second = WorkSharingPool.builder().workers(1).name("twin").build()) {
            SchedulerMetrics.of(first).bindTo(registry);
            assertThat(registry.find("app.spindle.pool.workers").gauges()).as("the filter renamed the meters").hasSize(1);
            assertThatThrownBy(() -> SchedulerMetrics.of(second).bindTo(registry))
                    .as("a second live pool named twin")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("twin");
            assertThatCode(() -> SchedulerMetrics.of(first).bindTo(registry))
                    .as("binding the same pool again is harmless").doesNotThrowAnyException();
        }
    }

    @Test
    void aNewPoolNamedLikeACollectedOneIsReadUnderARenamingFilter() throws Exception {
        WeakReference<WorkSharingPool> gone = bindAndClose("reborn");
        for (int i = 0; i < 200 && gone.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(gone.get()).as("the closed pool was collected").isNull();

        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("reborn").build()) {
            SchedulerMetrics.of(pool).bindTo(registry);
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS);
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(registry.get("app.spindle.pool.tasks.completed").tag("pool", "reborn").functionCounter().count())
                    .as("the new pool's completed tasks").isEqualTo(1.0);
        }
    }

    private WeakReference<WorkSharingPool> bindAndClose(String name) {
        WorkSharingPool pool = WorkSharingPool.builder().workers(1).name(name).build();
        SchedulerMetrics.of(pool).bindTo(registry);
        pool.close();
        return new WeakReference<>(pool);
    }
}
