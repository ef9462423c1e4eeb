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
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The binders' clash check compares the ids the meters land under, after the registries'
 * filters, not the ids the binders build: a filter that renames meters, or drops a tag, changes
 * which binds share a meter. The pools differ in parallelism, which their gauges read exactly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MeterFilterLandingIdsTest {

    private static WorkSharingPool pool(int workers) {
        return WorkSharingPool.builder().workers(workers).name("x").build();
    }

    private static double parallelism(MeterRegistry registry, String name) {
        return registry.get(name).tag("pool", "x").gauge().value();
    }

    /**
     * The composite prefixes its meters: the first pool's land in the child as
     * {@code app.spindle.pool.*}, the second's, bound straight, as {@code spindle.pool.*}; no
     * meter is shared, yet the second bind was refused as a clash.
     */
    @Test
    void aPoolBoundStraightToAChildIsNotRefusedForOneTheCompositeRenames() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.withName("app." + id.getName());
            }
        });
        composite.add(child);
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a).bindTo(composite);
            assertThatCode(() -> SchedulerMetrics.of(b).bindTo(child)).doesNotThrowAnyException();
            assertThat(parallelism(child, "app.spindle.pool.parallelism")).as("the composite's pool").isEqualTo(1.0);
            assertThat(parallelism(child, "spindle.pool.parallelism")).as("the pool bound straight").isEqualTo(3.0);
        }
    }

    /**
     * The composite drops the {@code env} tag that tells the two pools apart: both land in the
     * child as {@code spindle.pool.*{pool=x}}. The second bind went through and its meters were
     * the first pool's, silently.
     */
    @Test
    void aPoolLandingOnTheIdsOfAnotherThroughACompositesFilterIsRefused() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.config().meterFilter(MeterFilter.ignoreTags("env"));
        composite.add(child);
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a, Tags.of("env", "a")).bindTo(composite);
            int before = child.getMeters().size();
            assertThatThrownBy(() -> SchedulerMetrics.of(b).bindTo(child))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is already registered");
            assertThat(child.getMeters()).hasSize(before);
            assertThat(parallelism(child, "spindle.pool.parallelism")).isEqualTo(1.0);
        }
    }

    /** The same in one registry: its filter drops the tag, and the second pool read the first's meters. */
    @Test
    void aPoolLandingOnTheIdsOfAnotherThroughARegistrysFilterIsRefused() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(MeterFilter.ignoreTags("env"));
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a, Tags.of("env", "a")).bindTo(registry);
            assertThatThrownBy(() -> SchedulerMetrics.of(b, Tags.of("env", "b")).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is already registered");
            assertThat(parallelism(registry, "spindle.pool.parallelism")).isEqualTo(1.0);
            assertThatCode(() -> SchedulerMetrics.of(a, Tags.of("env", "a")).bindTo(registry))
                    .as("binding the same pool again is harmless").doesNotThrowAnyException();
        }
    }
}
