/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster whose workers come and go under new ids ({@link LocalCluster#addWorker}, then
 * {@link LocalCluster#retire} or {@link LocalCluster#killWorker}) keeps every gone worker
 * referenced (its id stays an index; {@link LocalCluster#restartWorker} reuses it): what such a
 * worker holds must not grow with the churn. Each gone worker kept its stopped pool (its threads'
 * records and deques) and its ring of 4,096 departures, about 32 KB, for the cluster's life: up to
 * {@link ClusterCoordinator#MAX_WORKERS} of them, over 100 MB. Read through the package-private
 * {@code workersFootprintForTests}: the pool threads and ring slots still held, over all workers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GoneWorkersLetGoOfTheirPoolsTest {

    /** Adds a worker, runs a task on it, and retires or kills it. */
    private static void churn(LocalCluster cluster, int round) throws Exception {
        int id = cluster.addWorker();
        ClusterFuture<Integer> f = cluster.client().submit(TaskSpec.builder("on-" + round,
                (TaskFunction<Integer>) args -> 1).restrictions(Restrictions.loose(java.util.Set.of(id))).build());
        assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        f.release();
        if (round % 2 == 0) {
            cluster.retire(id).get(30, TimeUnit.SECONDS);
        } else {
            cluster.killWorker(id);
        }
    }

    @Test
    void workersAddedAndGoneLeaveTheSameFootprint() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .forgetReleased(true).build()) {
            for (int round = 0; round < 2; round++) {
                churn(cluster, round);
            }
            Map<String, Integer> early = cluster.workersFootprintForTests();
            for (int round = 2; round < 20; round++) {
                churn(cluster, round);
            }
            assertThat(cluster.workers()).isEqualTo(21);
            assertThat(cluster.workersFootprintForTests()).as("after 20 workers came and went, against 2")
                    .isEqualTo(early);
            // and a gone id restarted holds a pool and a ring again, as a live worker does
            cluster.restartWorker(5);
            Map<String, Integer> restarted = cluster.workersFootprintForTests();
            assertThat(restarted.get("poolThreads")).isEqualTo(early.get("poolThreads") + 1);
            assertThat(restarted.get("ringSlots")).isEqualTo(early.get("ringSlots") + ClusterWorker.MAX_OVERTAKEN);
            assertThat(cluster.client().submit(TaskSpec.builder("on-restarted", (TaskFunction<Integer>) args -> 2)
                    .restrictions(Restrictions.strict(java.util.Set.of(5))).build()).get(30, TimeUnit.SECONDS))
                    .isEqualTo(2);
        }
    }
}
