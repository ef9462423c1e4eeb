/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A refused bind to a {@link CompositeMeterRegistry} leaves the registries under it as they were,
 * the application's own meters included. The composite's first meter reused, in {@code child},
 * a gauge the application had registered there under that id; a later meter of the bind was
 * refused by {@code other} (an application counter of its id), and the rollback removed the
 * composite's meter, which Micrometer removes from the registries under it by id: the
 * application's gauge went with it, and nothing put it back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompositeBindKeepsApplicationMetersTest {

    @Test
    void aRefusedBindToACompositeKeepsAnApplicationsMeterInARegistryUnderIt() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        SimpleMeterRegistry other = new SimpleMeterRegistry();
        AtomicInteger appWorkers = new AtomicInteger(7);
        Gauge appGauge = Gauge.builder("spindle.pool.workers", appWorkers, AtomicInteger::get)
                .tag("pool", "p").register(child);
        Counter appCounter = Counter.builder("spindle.pool.parks").tag("pool", "p").register(other);
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(child).add(other);
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("p").build()) {
            assertThatThrownBy(() -> SchedulerMetrics.of(pool).bindTo(composite))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("spindle.pool.parks");

            assertThat(child.getMeters()).as("the application's gauge, and nothing of the bind")
                    .containsExactly(appGauge);
            assertThat(child.get("spindle.pool.workers").tag("pool", "p").gauge().value()).isEqualTo(7.0);
            assertThat(other.getMeters()).as("the other registry after the refused bind").containsExactly(appCounter);
            assertThat(composite.getMeters()).as("the composite after the refused bind").isEmpty();
        }
    }
}
