/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the binders: each test failed on the code before its fix
 * (docs/measurements/2026-11-29-s26/metrics-review-before-after.txt).
 *
 * <p>A Micrometer meter is identified by its name and tags, and registering an id that is
 * already there returns the meter that is there. Two schedulers with one name (before the
 * defaults were numbered, every {@code AsyncRuntime} built without a name was
 * {@code spindle-async}, every default actor system's pool {@code spindle-actors}) therefore
 * shared one set of meters, which read the first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetricsRegressionTest {

    /** The registry under test; {@link MeterFilterRegressionTest} gives it a renaming filter. */
    final MeterRegistry registry = new SimpleMeterRegistry();

    /** The name the registry gives the meter Spindle names {@code name}. */
    String registered(String name) {
        return name;
    }

    /**
     * Binding a second live pool named like a bound one reported nothing about it: its meters
     * were the first pool's, silently. Now the bind is refused, naming the clash.
     */
    @Test
    void aSecondLivePoolWithTheSameNameIsRefusedInsteadOfReadingTheFirst() {
        try (WorkSharingPool first = WorkSharingPool.builder().workers(1).name("twin").build();
                WorkSharingPool second = WorkSharingPool.builder().workers(1).name("twin").build()) {
            SchedulerMetrics.of(first).bindTo(registry);
            assertThat(registry.find(registered("spindle.pool.workers")).gauges()).as("the first pool's meters").hasSize(1);
            assertThatThrownBy(() -> SchedulerMetrics.of(second).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("twin");
            assertThatCode(() -> SchedulerMetrics.of(first).bindTo(registry))
                    .as("binding the same pool again is harmless").doesNotThrowAnyException();
        }
    }

    /**
     * A pool that was bound, closed and collected left meters that read NaN (gauges) or their
     * last value (counters) for ever, and a new pool of that name bound to the registry got those
     * dead meters back: it was never read.
     */
    @Test
    void aNewPoolNamedLikeACollectedOneIsReadNotTheDeadMeters() throws Exception {
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
            assertThat(registry.get(registered("spindle.pool.tasks.completed")).tag("pool", "reborn").functionCounter().count())
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
