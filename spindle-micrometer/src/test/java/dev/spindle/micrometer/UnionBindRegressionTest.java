/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A union's bind is all or nothing. Since a bind refuses a name another live scheduler's meters
 * hold ({@link MetricsRegressionTest}), {@code SchedulerMetrics.ofUnion(...).bindTo} could fail
 * part-way: it registered member by member, so when member {@code i} clashed, the routed counters
 * of members {@code 0..i} and the meters of the members before {@code i} stayed in the registry,
 * reading a union whose bind had been refused. Both tests failed so before the fix: the registry
 * held those meters after the {@link IllegalArgumentException}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnionBindRegressionTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private Set<Meter.Id> ids() {
        return registry.getMeters().stream().map(Meter::getId).collect(Collectors.toSet());
    }

    /**
     * Member 1 is named like a live pool already bound: the bind is refused and the registry is
     * left exactly as it was (before the fix it gained the union's routed counters for members 0
     * and 1 and every meter of member 0). Once the clash is gone, the same binder binds.
     */
    @Test
    void aUnionWhoseSecondMemberClashesLeavesTheRegistryAsItWas() {
        try (WorkSharingPool bound = WorkSharingPool.builder().workers(1).name("twin").build();
                SchedulerUnion union = SchedulerUnion.owning(
                        WorkSharingPool.builder().workers(1).name("first").build(),
                        WorkSharingPool.builder().workers(1).name("twin").build())) {
            SchedulerMetrics.of(bound).bindTo(registry);
            Set<Meter.Id> before = ids();
            var binder = SchedulerMetrics.ofUnion(union, "u", Tags.empty());

            assertThatThrownBy(() -> binder.bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("twin");
            assertThat(ids()).as("the meters after the refused bind").containsExactlyInAnyOrderElementsOf(before);

            registry.getMeters().stream().filter(m -> "twin".equals(m.getId().getTag("pool")))
                    .forEach(registry::remove);                      // the clash is gone
            assertThatCode(() -> binder.bindTo(registry)).doesNotThrowAnyException();
            assertThat(registry.find("spindle.union.tasks.routed").tag("union", "u").functionCounters())
                    .hasSize(2);
            assertThat(registry.find("spindle.pool.tasks.completed").tag("pool", "first").functionCounter())
                    .isNotNull();
            assertThat(registry.find("spindle.pool.tasks.completed").tag("pool", "twin").functionCounter())
                    .isNotNull();
        }
    }

    /**
     * Two members of one union share a name: the second clashes with the first, bound by the same
     * call. Nothing is registered (before the fix, the first member's meters and two routed
     * counters were).
     */
    @Test
    void aUnionWhoseOwnMembersShareANameRegistersNothing() {
        try (SchedulerUnion union = SchedulerUnion.owning(
                WorkSharingPool.builder().workers(1).name("same").build(),
                WorkSharingPool.builder().workers(1).name("same").build())) {
            assertThatThrownBy(() -> SchedulerMetrics.ofUnion(union, "u", Tags.empty()).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("same");
            assertThat(ids()).as("the meters after the refused bind").isEmpty();
        }
    }
}
