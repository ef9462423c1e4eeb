/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.actor.ActorSystem;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bindTo(null)} failed deep inside the bind with a {@code NullPointerException} without a
 * message, after noting the null registry in the binders' notes for good; every binder now refuses
 * it at once, naming the parameter.
 */
@Timeout(30)
class NullRegistryBindTest {

    @Test
    void everyBinderNamesANullRegistry() {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("null-registry").build();
                SchedulerUnion union = SchedulerUnion.of(pool);
                ActorSystem system = ActorSystem.create(pool)) {
            assertThatThrownBy(() -> SchedulerMetrics.of(pool).bindTo(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("registry");
            assertThatThrownBy(() -> SchedulerMetrics.ofUnion(union, "u", Tags.empty()).bindTo(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("registry");
            assertThatThrownBy(() -> new ActorSystemMetrics(system).bindTo(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("registry");
        }
    }
}
