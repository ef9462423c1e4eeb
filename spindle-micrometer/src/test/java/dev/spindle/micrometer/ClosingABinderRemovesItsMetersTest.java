/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An application that makes uniquely named pools (one per batch of requests, per tenant) and binds
 * each one kept every pool's meters for good: nothing removed them, and only a pool bound under
 * the same name took their place. Closing a binder removes the meters it registered, from every
 * registry it was bound to, and nothing else.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosingABinderRemovesItsMetersTest {

    private static List<Meter> tagged(MeterRegistry registry, String key, String value) {
        return registry.getMeters().stream().filter(m -> value.equals(m.getId().getTag(key))).toList();
    }

    @Test
    void closeRemovesThePoolsMetersFromEveryRegistryAndLeavesOthersAlone() {
        MeterRegistry plain = new SimpleMeterRegistry();
        MeterRegistry under = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(under);
        try (WorkSharingPool batch = WorkSharingPool.builder().workers(1).name("batch-1").build();
                WorkSharingPool other = WorkSharingPool.builder().workers(1).name("batch-2").build();
                WorkStealingPool tagged = WorkStealingPool.builder().workers(1).name("batch-1").build()) {
            SchedulerMetrics metrics = SchedulerMetrics.of(batch);
            metrics.bindTo(plain);
            metrics.bindTo(composite);
            SchedulerMetrics.of(other).bindTo(plain);
            SchedulerMetrics.of(tagged, Tags.of("tenant", "t")).bindTo(plain);   // same name, other tags
            int otherMeters = tagged(plain, "pool", "batch-2").size();
            int all = plain.getMeters().size();
            assertThat(tagged(plain, "pool", "batch-1")).hasSizeGreaterThan(otherMeters);   // both batch-1s
            assertThat(tagged(under, "pool", "batch-1")).hasSize(otherMeters);

            batch.shutdown();
            metrics.close();

            assertThat(tagged(plain, "pool", "batch-1")).as("only the tagged pool's are left")
                    .hasSize(otherMeters).allMatch(m -> "t".equals(m.getId().getTag("tenant")));
            assertThat(tagged(plain, "pool", "batch-2")).hasSize(otherMeters);
            assertThat(plain.getMeters()).hasSize(all - otherMeters);
            assertThat(composite.getMeters()).isEmpty();
            assertThat(under.getMeters()).isEmpty();
        }
    }

    @Test
    void closeIsIdempotentAndTheBinderCanBeBoundAgain() {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("again").build()) {
            SchedulerMetrics metrics = SchedulerMetrics.of(pool);
            metrics.bindTo(registry);
            int meters = registry.getMeters().size();
            metrics.close();
            metrics.close();
            assertThat(registry.getMeters()).isEmpty();

            metrics.bindTo(registry);
            assertThat(registry.getMeters()).hasSize(meters);
            assertThat(registry.get("spindle.pool.parallelism").tag("pool", "again").gauge().value()).isEqualTo(1);
            metrics.close();
            assertThat(registry.getMeters()).isEmpty();

            SchedulerMetrics.of(pool).bindTo(registry);   // a new binder of the same pool
            assertThat(registry.getMeters()).hasSize(meters);
        }
    }

    @Test
    void closeLeavesTheMetersOfTheSameNamedPoolThatReplacedItsOwn() {
        MeterRegistry registry = new SimpleMeterRegistry();
        SchedulerMetrics first;
        try (WorkSharingPool old = WorkSharingPool.builder().workers(1).name("restarted").build()) {
            first = SchedulerMetrics.of(old);
            first.bindTo(registry);
        }
        try (WorkSharingPool replacement = WorkSharingPool.builder().workers(2).name("restarted").build()) {
            SchedulerMetrics.of(replacement).bindTo(registry);   // replaces the closed pool's meters
            int meters = registry.getMeters().size();
            first.close();
            assertThat(registry.getMeters()).hasSize(meters);
            assertThat(registry.get("spindle.pool.parallelism").tag("pool", "restarted").gauge().value())
                    .isEqualTo(2);
        }
    }

    @Test
    void closeLeavesAMeterTheApplicationRegisteredUnderTheSameId() {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("app").build()) {
            SchedulerMetrics metrics = SchedulerMetrics.of(pool);
            metrics.bindTo(registry);
            Meter ours = registry.get("spindle.pool.parallelism").tag("pool", "app").gauge();
            registry.remove(ours);
            registry.gauge("spindle.pool.parallelism", Tags.of("pool", "app"), 42.0);
            metrics.close();
            assertThat(registry.getMeters()).hasSize(1);
            assertThat(registry.get("spindle.pool.parallelism").tag("pool", "app").gauge().value()).isEqualTo(42);
        }
    }

    @Test
    void closingAUnionsBinderRemovesItsMembersMetersToo() {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (WorkSharingPool a = WorkSharingPool.builder().workers(1).name("member-a").build();
                WorkSharingPool b = WorkSharingPool.builder().workers(1).name("member-b").build()) {
            SchedulerMetrics metrics = SchedulerMetrics.ofUnion(SchedulerUnion.of(a, b), "u", Tags.empty());
            metrics.bindTo(registry);
            assertThat(tagged(registry, "union", "u")).hasSize(2);
            assertThat(tagged(registry, "pool", "member-a")).isNotEmpty();
            metrics.close();
            assertThat(registry.getMeters()).isEmpty();
        }
    }

    @Test
    void closingAnAsyncRuntimesActorSystemsAndClustersBinderRemovesTheirMeters() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(1).name("rt").build();
                ActorSystem system = ActorSystem.builder().name("actors").build()) {
            SchedulerMetrics async = SchedulerMetrics.of(runtime);
            ActorSystemMetrics actors = new ActorSystemMetrics(system);
            ClusterMetrics clusterMetrics = new ClusterMetrics(cluster, "c");
            async.bindTo(registry);
            actors.bindTo(registry);
            clusterMetrics.bindTo(registry);
            assertThat(tagged(registry, "runtime", "rt")).isNotEmpty();
            assertThat(tagged(registry, "system", "actors")).isNotEmpty();
            assertThat(tagged(registry, "cluster", "c")).isNotEmpty();
            async.close();
            assertThat(tagged(registry, "runtime", "rt")).isEmpty();
            actors.close();
            assertThat(tagged(registry, "system", "actors")).isEmpty();
            clusterMetrics.close();
            assertThat(registry.getMeters()).isEmpty();
        } finally {
            cluster.close();
        }
    }
}
