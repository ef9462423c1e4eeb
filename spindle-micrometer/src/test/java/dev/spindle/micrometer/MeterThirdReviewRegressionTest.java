/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Restarting a component under the same name: the old scheduler is closed, a new one with the
 * same name is built and bound. The closed one may well still be reachable (a field not yet
 * overwritten, a reference the GC has not cleared yet), and the bind was refused as a clash with
 * "another live object" until a garbage collection happened to clear it: whether a restart could
 * bind its metrics depended on the GC.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MeterThirdReviewRegressionTest {

    final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aPoolReplacingAClosedOneOfTheSameNameBindsAndIsRead() throws Exception {
        WorkSharingPool old = WorkSharingPool.builder().workers(1).name("restarted").build();
        SchedulerMetrics.of(old).bindTo(registry);
        old.close();                                   // still reachable: `old` is used below
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("restarted").build()) {
            assertThatCode(() -> SchedulerMetrics.of(pool).bindTo(registry))
                    .as("binding the replacement of a closed pool").doesNotThrowAnyException();
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS);
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS);
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(registry.get("spindle.pool.tasks.completed").tag("pool", "restarted").functionCounter().count())
                    .as("the new pool's completed tasks, not the closed one's").isEqualTo(2.0);
        }
        assertThat(old.isShutdown()).isTrue();
    }

    @Test
    void anAsyncRuntimeReplacingAClosedOneOfTheSameNameBinds() {
        AsyncRuntime old = AsyncRuntime.builder().workers(1).name("rt-restarted").build();
        SchedulerMetrics.of(old).bindTo(registry);
        old.close();
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(1).name("rt-restarted").build()) {
            assertThatCode(() -> SchedulerMetrics.of(runtime).bindTo(registry))
                    .as("binding the replacement of a closed runtime").doesNotThrowAnyException();
        }
        assertThat(old.isShutdown()).isTrue();
    }

    @Test
    void anActorSystemReplacingAClosedOneOfTheSameNameBinds() {
        ActorSystem old = ActorSystem.builder().name("sys-restarted").build();
        new ActorSystemMetrics(old).bindTo(registry);
        old.close();
        try (ActorSystem system = ActorSystem.builder().name("sys-restarted").build()) {
            assertThatCode(() -> new ActorSystemMetrics(system).bindTo(registry))
                    .as("binding the replacement of a closed actor system").doesNotThrowAnyException();
        }
        assertThat(old.isClosed()).isTrue();
    }

    @Test
    void aClusterReplacingAClosedOneOfTheSameNameBinds() {
        LocalCluster old = LocalCluster.builder().workers(1).build();
        new ClusterMetrics(old, "grid-restarted").bindTo(registry);
        old.close();
        try (LocalCluster cluster = LocalCluster.builder().workers(1).build()) {
            assertThatCode(() -> new ClusterMetrics(cluster, "grid-restarted").bindTo(registry))
                    .as("binding the replacement of a closed cluster").doesNotThrowAnyException();
            assertThat(registry.get("spindle.cluster.workers").tag("cluster", "grid-restarted").gauge().value())
                    .as("the new cluster's workers, not the closed one's NaN").isEqualTo(1.0);
        }
        assertThat(old).isNotNull();
    }

    /** The refusal still holds where it should: two open pools of one name. */
    @Test
    void twoOpenPoolsOfOneNameAreStillRefused() {
        try (WorkSharingPool first = WorkSharingPool.builder().workers(1).name("twin3").build();
                WorkSharingPool second = WorkSharingPool.builder().workers(1).name("twin3").build()) {
            SchedulerMetrics.of(first).bindTo(registry);
            assertThatThrownBy(() -> SchedulerMetrics.of(second).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
