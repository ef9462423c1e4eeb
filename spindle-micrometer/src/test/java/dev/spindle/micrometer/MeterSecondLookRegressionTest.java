/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A second look at a closed scheduler's meters giving way to a same-named replacement.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MeterSecondLookRegressionTest {

    /** A registry that refuses one gauge of one object while {@link #refuse} is set, as a registry may. */
    static final class Refusing extends SimpleMeterRegistry {
        volatile String refuse;
        volatile Object of;

        @Override
        protected <T> Gauge newGauge(Meter.Id id, T obj, ToDoubleFunction<T> valueFunction) {
            if (id.getName().equals(refuse) && obj == of) {
                throw new IllegalArgumentException("refused: " + id.getName());
            }
            return super.newGauge(id, obj, valueFunction);
        }
    }

    /**
     * A bind is all or nothing: refused, it leaves the registry as it was. The replacement of a
     * closed pool removed the closed pool's meters one by one as it registered its own; when the
     * registry refused one of its later meters, the bind took its own back out, and the closed
     * pool's meters it had removed before stayed gone (its steal, park and unpark counters, its
     * worker and queue gauges), though the bind had failed.
     */
    @Test
    void aRefusedReplacementLeavesTheClosedPoolsMetersInPlace() throws Exception {
        Refusing registry = new Refusing();
        WorkSharingPool old = WorkSharingPool.builder().workers(1).name("refused-replacement").build();
        old.submit(() -> { }).get(10, TimeUnit.SECONDS);
        SchedulerMetrics.of(old).bindTo(registry);
        old.close();
        List<String> before = ids(registry);

        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("refused-replacement").build()) {
            registry.of = pool;
            registry.refuse = "spindle.pool.parallelism";
            assertThatThrownBy(() -> SchedulerMetrics.of(pool).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refused");
            assertThat(ids(registry)).as("the meters after the refused bind").isEqualTo(before);
            assertThat(registry.get("spindle.pool.tasks.completed").tag("pool", "refused-replacement")
                    .functionCounter().count()).as("the closed pool's count").isEqualTo(1.0);

            registry.refuse = null;                // and once accepted, the replacement binds
            SchedulerMetrics.of(pool).bindTo(registry);
            assertThat(ids(registry)).isEqualTo(before);
            assertThat(registry.get("spindle.pool.tasks.completed").tag("pool", "refused-replacement")
                    .functionCounter().count()).as("the new pool's count").isEqualTo(0.0);
        }
        assertThat(old.isShutdown()).isTrue();
    }

    private static List<String> ids(SimpleMeterRegistry registry) {
        return registry.getMeters().stream().map(m -> m.getId().toString()).sorted().collect(Collectors.toList());
    }
}
