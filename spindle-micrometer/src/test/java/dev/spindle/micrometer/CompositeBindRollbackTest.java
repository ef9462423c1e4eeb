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
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bind is all or nothing, and rolling one back removes only what it added. Through a
 * {@link CompositeMeterRegistry}, a meter the bind added to the composite may be, in a child, the
 * meter that child held before (the same pool bound straight to it): Micrometer removes a
 * composite's meter from the registries under it too, so removing the composite's meter must not
 * take the child's along.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompositeBindRollbackTest {

    private static List<Meter.Id> ids(MeterRegistry registry) {
        return registry.getMeters().stream().map(Meter::getId).toList();
    }

    /**
     * The pool is bound straight to {@code child}; its bind to the composite over {@code child}
     * and {@code other} is refused by {@code other}, which holds an application counter of the id
     * of one of the pool's meters. The rollback removed the composite meters the bind had
     * registered before that one, and with them the child's own meters of the earlier bind.
     */
    @Test
    void aRefusedBindToACompositeKeepsTheChildsMetersOfAnEarlierBind() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        SimpleMeterRegistry other = new SimpleMeterRegistry();
        Counter own = Counter.builder("spindle.pool.parks").tag("pool", "p").register(other);
        CompositeMeterRegistry composite = new CompositeMeterRegistry().add(child).add(other);
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("p").build()) {
            SchedulerMetrics.of(pool).bindTo(child);
            List<Meter.Id> bound = ids(child);
            assertThat(bound).isNotEmpty();

            assertThatThrownBy(() -> SchedulerMetrics.of(pool).bindTo(composite))
                    .isInstanceOf(IllegalArgumentException.class);

            assertThat(ids(child)).as("the child's meters of the earlier, straight bind")
                    .containsExactlyInAnyOrderElementsOf(bound);
            assertThat(child.get("spindle.pool.parallelism").tag("pool", "p").gauge().value()).isEqualTo(2.0);
            assertThat(other.getMeters()).as("the other child after the refused bind").containsExactly(own);
        }
    }
}
