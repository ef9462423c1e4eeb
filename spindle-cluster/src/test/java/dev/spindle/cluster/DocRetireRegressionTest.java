/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LocalCluster#retire} documents {@code IllegalStateException} "if the worker is gone
 * already, or it is the last worker that is alive and not retiring (a cluster keeps one)". Right
 * after {@link LocalCluster#killWorker} the scheduler had not yet heard of the loss (it travels
 * as a message, after the simulated latency), so both checks passed: retiring the one live worker
 * left a cluster with no worker, where every later task failed with "no allowed worker is alive".
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DocRetireRegressionTest {

    @Test
    void retireRightAfterAKillSeesTheKilledWorkerGone() throws Exception {
        for (int round = 0; round < 5; round++) {
            try (LocalCluster cluster = LocalCluster.builder().workers(2).latency(Duration.ofMillis(20)).build()) {
                cluster.killWorker(1);
                assertThatThrownBy(() -> cluster.retire(0)).as("retire the last live worker")
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("last active worker");
                assertThatThrownBy(() -> cluster.retire(1)).as("retire the killed worker")
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("is gone");
                ClusterFuture<Integer> after = cluster.client().submit("after-" + round, args -> 7);
                assertThat(after.get(20, TimeUnit.SECONDS)).isEqualTo(7);
            }
        }
    }

    /** The kill now waits for the scheduler; a kill during a retirement still ends both, as retire documents. */
    @Test
    void killDuringARetirementCompletesTheRetirement() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(3).build()) {
            ClusterFuture<Integer> held = cluster.client().scatter("held", 3, 1);
            assertThat(held.get(20, TimeUnit.SECONDS)).isEqualTo(3);
            java.util.concurrent.CompletableFuture<Void> retiring = cluster.retire(1);
            cluster.killWorker(1);
            retiring.get(20, TimeUnit.SECONDS);
            assertThat(cluster.client().submit("plus", args -> (Integer) args.get(0) + 1, held).get(20, TimeUnit.SECONDS))
                    .isEqualTo(4);
        }
    }
}
