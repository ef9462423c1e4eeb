/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code spindle.cluster.tasks.executed} is a Micrometer {@code FunctionCounter}: it must never go
 * down (a monitoring system reads a drop as a reset). It sums each worker slot's executed count,
 * and a worker restarted under the same id (as the docs describe for a crashed worker JVM) starts
 * that slot again from zero, so the counter fell by everything the lost incarnation had run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterCounterRestartTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void theExecutedCounterDoesNotGoDownWhenAWorkerIsRestartedUnderItsId() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1)
                .latency(Duration.ZERO).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        try {
            new ClusterMetrics(cluster, "c").bindTo(registry);
            ClusterFuture<byte[]> data = cluster.client().scatter("data", new byte[10], 1);
            ClusterFuture<Integer> len = cluster.client().submit("len", in -> ((byte[]) in.get(0)).length, data);
            assertThat(len.get(10, TimeUnit.SECONDS)).isEqualTo(10);
            assertThat(cluster.stats().workers().get(1).executed()).as("worker 1 ran the task").isPositive();
            double before = registry.get("spindle.cluster.tasks.executed").functionCounter().count();

            cluster.killWorker(1);
            cluster.restartWorker(1);

            double after = registry.get("spindle.cluster.tasks.executed").functionCounter().count();
            assertThat(after).as("tasks executed, a counter, after a restart (before: %s)", before)
                    .isGreaterThanOrEqualTo(before);
        } finally {
            cluster.close();
        }
    }
}
