/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A filter of a composite registry maps one meter of pool {@code a} (its {@code parks} counter)
 * onto the id of a gauge of pool {@code b} ({@code parallelism}, {@code pool=b}). Once {@code a}
 * is shut down its meters are a stopped scheduler's, which a bind replaces, whatever their kind:
 * bound straight to a registry, {@code b} got its gauge there; bound to the composite, it was
 * refused, as if the counter were an application's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoppedSchedulerOtherKindMeterTest {

    /** Maps {@code spindle.pool.parks} of pool {@code a} onto {@code spindle.pool.parallelism} of pool {@code b}. */
    private static final MeterFilter ONTO_B = new MeterFilter() {
        @Override
        public Meter.Id map(Meter.Id id) {
            if (id.getName().equals("spindle.pool.parks") && "a".equals(id.getTag("pool"))) {
                return id.withName("spindle.pool.parallelism").replaceTags(Tags.of("pool", "b"));
            }
            return id;
        }
    };

    @Test
    void aStoppedPoolsMeterOfAnotherKindDoesNotBlockABindToAComposite() {
        SimpleMeterRegistry leaf = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(leaf);
        composite.config().meterFilter(ONTO_B);
        WorkSharingPool a = WorkSharingPool.builder().workers(1).name("a").build();
        SchedulerMetrics.of(a).bindTo(composite);
        assertThat(composite.get("spindle.pool.parallelism").tag("pool", "b").meter())
                .as("a's counter, under b's id").isInstanceOf(FunctionCounter.class);
        try (WorkSharingPool b = WorkSharingPool.builder().workers(2).name("b").build()) {
            assertThatThrownBy(() -> SchedulerMetrics.of(b).bindTo(composite)).as("while a runs")
                    .isInstanceOf(IllegalArgumentException.class);
            a.close();

            SchedulerMetrics.of(b).bindTo(composite);

            assertThat(composite.get("spindle.pool.parallelism").tag("pool", "b").gauge().value()).isEqualTo(2.0);
            assertThat(leaf.get("spindle.pool.parallelism").tag("pool", "b").gauge().value()).isEqualTo(2.0);
        } finally {
            a.close();
        }
    }
}
