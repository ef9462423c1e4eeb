/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bind is all or nothing (see {@code SchedulerMetrics}): also when the registry itself refuses
 * one of its meters, as Micrometer does for an id already registered as another type of meter.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MeterBindRegressionTest {

    /**
     * The registry refused the fifth meter of the bind (a counter of the application's already
     * held that id); the four before it stayed registered, reading the pool, although the bind
     * threw.
     */
    @Test
    void aMeterTheRegistryRefusesLeavesNoneOfTheBindRegistered() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Counter own = Counter.builder("spindle.pool.parks").tag("pool", "p").register(registry);
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("p").build()) {
            assertThatThrownBy(() -> SchedulerMetrics.of(pool).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("spindle.pool.parks");
            List<Meter> left = registry.getMeters();
            assertThat(left).as("the registry after the refused bind").containsExactly(own);
        }
    }

    /** Rolling a refused bind back removes only what it added: meters bound before stay. */
    @Test
    void aRefusedRebindKeepsTheMetersOfTheEarlierBind() {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("p").build()) {
            SchedulerMetrics.of(pool).bindTo(registry);
            int bound = registry.getMeters().size();
            Counter own = Counter.builder("spindle.pool.parks").tag("pool", "p").tag("env", "x").register(registry);
            assertThatThrownBy(() -> SchedulerMetrics.of(pool, Tags.of("env", "x"))
                    .bindTo(registry)).isInstanceOf(IllegalArgumentException.class);
            assertThat(registry.getMeters()).as("the first bind's meters and the application's counter")
                    .hasSize(bound + 1).contains(own);
            assertThat(registry.get("spindle.pool.workers").tag("pool", "p").gauges()).hasSize(1);
        }
    }
}
