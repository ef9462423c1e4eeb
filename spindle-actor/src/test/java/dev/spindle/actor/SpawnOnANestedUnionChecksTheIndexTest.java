/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A union passes an activation's hints on unchanged, so a member that is itself a union routes it
 * by the same scheduler index. Spawn checked the index against the system's union alone: on
 * {@code union(a, union(b))}, index 1 passed the check, and the inner union, which has no member
 * 1, refused the actor's first activation, ending the actor at its first message. Spawn now
 * refuses it, as it refuses an index the outer union has no member for.
 */
@Timeout(30)
class SpawnOnANestedUnionChecksTheIndexTest {

    @Test
    void spawnRefusesAnIndexANestedUnionHasNoMemberFor() throws Exception {
        try (WorkSharingPool a = WorkSharingPool.builder().workers(1).build();
                WorkSharingPool b = WorkSharingPool.builder().workers(1).build();
                SchedulerUnion inner = SchedulerUnion.of(b);
                SchedulerUnion outer = SchedulerUnion.of(a, inner);
                ActorSystem system = ActorSystem.create(outer)) {
            ActorConfig config = ActorConfig.builder().schedulerIndex(1).build();
            assertThatThrownBy(() -> system.spawn(StringBuilder::new, config))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex 1");
            assertThatThrownBy(() -> system.spawnWithSelf(self -> new StringBuilder(), config))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex 1");
            assertThat(system.stats().liveActors()).isZero();
        }
    }

    @Test
    void anIndexEveryUnionOnTheWayHasRunsTheActorThere() throws Exception {
        try (WorkSharingPool a = WorkSharingPool.builder().workers(1).name("nested-a").build();
                WorkSharingPool b = WorkSharingPool.builder().workers(1).name("nested-b").build();
                WorkSharingPool c = WorkSharingPool.builder().workers(1).name("nested-c").build();
                SchedulerUnion inner = SchedulerUnion.of(b, c);
                SchedulerUnion outer = SchedulerUnion.of(a, inner);
                ActorSystem system = ActorSystem.create(outer)) {
            ActorRef<StringBuilder> ref = system.spawn(StringBuilder::new,
                    ActorConfig.builder().schedulerIndex(1).build());
            assertThat(ref.ask(sb -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS))
                    .startsWith("nested-c");
        }
    }
}
