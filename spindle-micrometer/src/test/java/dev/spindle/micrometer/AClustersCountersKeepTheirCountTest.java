/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.CountingMode;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster's counters read NaN whenever its {@code stats()} threw (failing for a moment, or
 * closed), as its gauges do. A counter is a running total, and a registry takes its increase
 * from two readings: a step registry (what most push registries are) adds each reading less the
 * one before to the step, so a single NaN reading made the step NaN, and so the step after the
 * cluster answered again (its reading less the NaN): every task executed over those steps was
 * lost, though the cluster had counted them; a cumulative one (Prometheus) showed the total as
 * NaN, and a closed cluster's counters stayed NaN, the totals the application kept the meters
 * for gone. A counter now reads the latest figures a read returned, as a function counter whose
 * object was collected reads its last value; NaN only before the first answer.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AClustersCountersKeepTheirCountTest {

    @Test
    void aStepRegistryCountsTheTasksAcrossAMomentTheClusterFailed() {
        MockClock clock = new MockClock();
        SimpleMeterRegistry registry = new SimpleMeterRegistry(new SimpleConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public CountingMode mode() {
                return CountingMode.STEP;
            }

            @Override
            public Duration step() {
                return Duration.ofMinutes(1);
            }
        }, clock);
        GatedCluster cluster = new GatedCluster();
        cluster.figure = 10;
        new ClusterMetrics(cluster, "step").bindTo(registry);
        FunctionCounter executed = registry.get("spindle.cluster.tasks.executed").functionCounter();
        executed.count();                      // a publish reads the cluster: 10 so far
        cluster.closed = new IllegalArgumentException("failing for a moment");
        executed.count();
        cluster.closed = null;                 // answers again, 5 tasks on
        cluster.figure = 15;
        executed.count();
        clock.add(Duration.ofMinutes(1));
        assertThat(executed.count()).as("the tasks counted in the step that ended").isEqualTo(15.0);
        clock.add(Duration.ofMinutes(1));
        assertThat(executed.count()).as("the step after, with no task executed").isEqualTo(0.0);
    }

    @Test
    void aClosedClustersCountersKeepTheirLastFiguresAndItsGaugesReadNaN() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        GatedCluster cluster = new GatedCluster();
        new ClusterMetrics(cluster, "closing").bindTo(registry);
        FunctionCounter executed = registry.get("spindle.cluster.tasks.executed").functionCounter();
        cluster.closed = new IllegalArgumentException("failing from the start");
        assertThat(executed.count()).as("before the cluster has ever answered").isNaN();
        cluster.closed = null;
        cluster.figure = 7;
        assertThat(executed.count()).isEqualTo(7.0);
        cluster.closed = new RejectedExecutionException("closed");
        assertThat(executed.count()).as("a closed cluster's total").isEqualTo(7.0);
        assertThat(registry.get("spindle.cluster.tasks").tag("state", "memory").gauge().value())
                .as("a closed cluster holds nothing").isNaN();
    }
}
