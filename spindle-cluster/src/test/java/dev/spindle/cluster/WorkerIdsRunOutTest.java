/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LocalCluster#addWorker} gives each worker a new id, up to
 * {@link ClusterCoordinator#MAX_WORKERS}; a cluster whose workers come and go reaches the limit
 * with few alive. Past it, the caller passed no bad argument, yet got an
 * {@link IllegalArgumentException} about an id it never chose. It is the cluster's state that
 * refuses: an {@link IllegalStateException} that names the limit and the way on,
 * {@link LocalCluster#restartWorker}, which starts a worker under a gone one's id.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerIdsRunOutTest {

    @Test
    void addingAWorkerOnceEveryIdIsHandedOutIsAnIllegalStateNamingTheLimitAndRestartWorker() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).build()) {
            for (int id = 1; id < ClusterCoordinator.MAX_WORKERS; id++) {
                assertThat(cluster.addWorker()).isEqualTo(id);
                cluster.killWorker(id);       // gone for good: the next addWorker takes a new id
            }
            assertThat(cluster.workers()).isEqualTo(ClusterCoordinator.MAX_WORKERS);

            assertThatThrownBy(cluster::addWorker).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(String.valueOf(ClusterCoordinator.MAX_WORKERS))
                    .hasMessageContaining("restartWorker");
            assertThat(cluster.workers()).as("no id handed out").isEqualTo(ClusterCoordinator.MAX_WORKERS);
            // a bad thread count is still the caller's error, whatever the ids
            assertThatThrownBy(() -> cluster.addWorker(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("threads");

            // the way on that the message names
            cluster.restartWorker(7);
            assertThat(cluster.client().submit(TaskSpec.builder("on-7", (TaskFunction<Integer>) args -> 7)
                    .restrictions(Restrictions.strict(Set.of(7))).build()).get(30, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }
}
