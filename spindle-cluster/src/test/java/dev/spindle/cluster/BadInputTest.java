/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the public API of spindle-cluster fails at the call, with the documented exception
 * and a message that names the parameter.
 */
class BadInputTest {

    /** More than a {@code long} of nanoseconds (about 292 years) holds. */
    private static final Duration TOO_LONG = Duration.ofDays(365L * 300);

    @Test
    void threadsPerWorkerAboveWhatAPoolTakesIsRefusedBySetter() {
        assertThatThrownBy(() -> CoordinatorSettings.builder().threadsPerWorker(40_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threadsPerWorker");
        assertThatThrownBy(() -> LocalCluster.builder().threadsPerWorker(40_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threadsPerWorker");
        try (LocalCluster cluster = LocalCluster.builder().workers(1).build()) {
            assertThatThrownBy(() -> cluster.addWorker(40_000))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");
            assertThat(cluster.workers()).isEqualTo(1);
        }
    }

    @Test
    void durationsBeyondALongOfNanosecondsAreRefusedBySetter() {
        assertThatThrownBy(() -> LocalCluster.builder().latency(TOO_LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latency");
        assertThatThrownBy(() -> LocalCluster.builder().balanceInterval(TOO_LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("balanceInterval");
        assertThatThrownBy(() -> LocalCluster.builder().minStealDuration(TOO_LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minStealDuration");
        assertThatThrownBy(() -> LocalCluster.builder().saturatedOccupancy(TOO_LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("saturatedOccupancy");
        assertThatThrownBy(() -> CoordinatorSettings.builder().defaultDuration(TOO_LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultDuration");
        assertThatThrownBy(() -> TaskSpec.builder("t", args -> 1).durationHint(TOO_LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hint");
    }

    @Test
    void aTooLongDurationHintDoesNotStrandTheTasksSubmittedWithIt() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).build()) {
            Graph.Builder g = Graph.builder();
            // without the setter's check, the second spec fails inside the scheduler after the
            // first was recorded: its key then stays taken by a task that never runs
            TaskSpec<Integer> first = TaskSpec.builder("first", args -> 1).build();
            RuntimeException refused = null;
            try {
                TaskSpec<Integer> second = TaskSpec.builder("second", args -> 2).durationHint(TOO_LONG).build();
                cluster.client().submit(g.task(first).task(second).build());
            } catch (RuntimeException e) {
                refused = e;
            }
            assertThat(cluster.client().submit(first).get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(refused).isInstanceOf(IllegalArgumentException.class);      // at the setter
        }
    }

    // ---- regression guards

    @Test
    void settingsRestrictionsAndClusterCheckTheirArguments() {
        assertThatThrownBy(() -> CoordinatorSettings.builder().bandwidth(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bandwidth");
        assertThatThrownBy(() -> CoordinatorSettings.builder().latency(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latency");
        Set<Integer> withNull = new HashSet<>();
        withNull.add(null);
        assertThatThrownBy(() -> Restrictions.strict(withNull)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WorkerMemory(-1, null)).isInstanceOf(IllegalArgumentException.class);
        LocalCluster cluster = LocalCluster.builder().workers(1).build();
        assertThatThrownBy(() -> cluster.client().scatter("v", 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no worker 1");
        assertThatThrownBy(() -> cluster.killWorker(5)).isInstanceOf(IllegalArgumentException.class);
        cluster.close();
        assertThatThrownBy(cluster::addWorker).isInstanceOf(RejectedExecutionException.class);
    }
}
