/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A composite with no registry under it yet ({@code Metrics.globalRegistry} before an
 * application adds one, a composite its registries are added to later) holds its meters itself,
 * and hands them to each registry added to it: two schedulers of one name bound to it still
 * share a meter there. The pools differ in parallelism, which their gauges read exactly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmptyCompositeBindTest {

    private static WorkSharingPool pool(int workers) {
        return WorkSharingPool.builder().workers(workers).name("x").build();
    }

    private static double parallelism(MeterRegistry registry) {
        return registry.get("spindle.pool.parallelism").tag("pool", "x").gauge().value();
    }

    /** The second bind went through, and its meters were the first pool's (1.0). */
    @Test
    void aSecondLivePoolOfTheNameIsRefused() {
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a).bindTo(composite);
            assertThatThrownBy(() -> SchedulerMetrics.of(b).bindTo(composite))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is already registered");
            SimpleMeterRegistry added = new SimpleMeterRegistry();
            composite.add(added);
            assertThat(parallelism(added)).as("the first pool's gauge").isEqualTo(1.0);
        }
    }

    /** The replacement of a shut-down pool got the old pool's meters, which read it for good (1.0). */
    @Test
    void theReplacementOfAShutDownPoolGetsMetersOfItsOwn() {
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a).bindTo(composite);
            a.shutdown();
            SchedulerMetrics.of(b).bindTo(composite);
            SimpleMeterRegistry added = new SimpleMeterRegistry();
            composite.add(added);
            assertThat(parallelism(added)).as("the replacement's gauge").isEqualTo(3.0);
        }
    }
}
