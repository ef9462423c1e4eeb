/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A meter registered in a {@link CompositeMeterRegistry} is registered in its children too, so a
 * pool bound to the composite is bound to each child: a second live pool of its name bound
 * straight to a child (or the other way round) must be refused as it is in one registry, not
 * silently read the first one's meters. The pools differ in parallelism, which their gauges read
 * exactly from the start.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompositeRegistryBindTest {

    private static WorkSharingPool pool(int workers) {
        return WorkSharingPool.builder().workers(workers).name("x").build();
    }

    private static double parallelism(MeterRegistry registry) {
        return registry.get("spindle.pool.parallelism").tag("pool", "x").gauge().value();
    }

    /** The child's gauge was the composite's pool's (1.0), and the bind of the second went through. */
    @Test
    void aPoolBoundToTheChildOfACompositeHoldingItsNameIsRefused() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(child);
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a).bindTo(composite);
            int before = child.getMeters().size();
            assertThatThrownBy(() -> SchedulerMetrics.of(b).bindTo(child))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is already registered");
            assertThat(parallelism(child)).as("the child's gauge, still the first pool's").isEqualTo(1.0);
            assertThat(child.getMeters()).hasSize(before);
        }
    }

    /** The composite's meters took the child's (3.0, the other pool's) for the pool bound to it. */
    @Test
    void aPoolBoundToACompositeWhoseChildHoldsItsNameIsRefused() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(child);
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(b).bindTo(child);
            int before = child.getMeters().size();
            assertThatThrownBy(() -> SchedulerMetrics.of(a).bindTo(composite))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is already registered");
            assertThat(composite.getMeters()).as("the composite after the refused bind").isEmpty();
            assertThat(child.getMeters()).hasSize(before);
            assertThat(parallelism(child)).isEqualTo(3.0);
        }
    }

    /** Through nested composites, and between two composites sharing a child. */
    @Test
    void nestedAndSiblingCompositesAreSeenThrough() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry inner = new CompositeMeterRegistry().add(child);
        CompositeMeterRegistry outer = new CompositeMeterRegistry().add(inner);
        CompositeMeterRegistry sibling = new CompositeMeterRegistry().add(child);
        try (WorkSharingPool a = pool(1); WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(a).bindTo(outer);
            assertThatThrownBy(() -> SchedulerMetrics.of(b).bindTo(child))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> SchedulerMetrics.of(b).bindTo(sibling))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(sibling.getMeters()).isEmpty();
            assertThat(parallelism(child)).isEqualTo(1.0);
        }
    }

    /** The same pool through the composite and straight to its child is one binding, either way. */
    @Test
    void theSamePoolBindsToACompositeAndItsChild() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(child);
        SimpleMeterRegistry otherChild = new SimpleMeterRegistry();
        CompositeMeterRegistry otherComposite = new CompositeMeterRegistry().add(otherChild);
        try (WorkSharingPool a = pool(2)) {
            assertThatCode(() -> {
                SchedulerMetrics.of(a).bindTo(composite);
                SchedulerMetrics.of(a).bindTo(child);
                SchedulerMetrics.of(a).bindTo(otherChild);
                SchedulerMetrics.of(a).bindTo(otherComposite);
            }).doesNotThrowAnyException();
            assertThat(parallelism(child)).isEqualTo(2.0);
            assertThat(parallelism(otherComposite)).isEqualTo(2.0);
        }
    }

    /** A pool closed frees its name across the composite too: its replacement's meters read the replacement. */
    @Test
    void aClosedPoolsNameIsFreeThroughTheComposite() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(child);
        WorkSharingPool a = pool(1);
        SchedulerMetrics.of(a).bindTo(composite);
        a.close();
        try (WorkSharingPool b = pool(3)) {
            SchedulerMetrics.of(b).bindTo(child);
            assertThat(parallelism(child)).as("the child's gauge, the replacement's").isEqualTo(3.0);
        }

        SimpleMeterRegistry child2 = new SimpleMeterRegistry();
        CompositeMeterRegistry composite2 = new CompositeMeterRegistry().add(child2);
        WorkSharingPool c = pool(1);
        SchedulerMetrics.of(c).bindTo(child2);
        c.close();
        try (WorkSharingPool d = pool(3)) {
            SchedulerMetrics.of(d).bindTo(composite2);
            assertThat(parallelism(child2)).as("the child's gauge, the replacement's").isEqualTo(3.0);
            assertThat(parallelism(composite2)).isEqualTo(3.0);
        }
    }
}
