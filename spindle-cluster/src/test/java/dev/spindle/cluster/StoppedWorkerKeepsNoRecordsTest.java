/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that stopped (retired, or killed) stays referenced by its {@link LocalCluster} for good
 * unless its id rejoins: {@link LocalCluster#addWorker()} hands out a new id each time, so a
 * cluster that grows and shrinks keeps every worker it retired. Such a worker must keep nothing of
 * the keys it saw. It dropped its jobs, values and held tasks, but kept what it remembered of the
 * releases it handled ({@code overtaken}, up to {@link ClusterWorker#MAX_OVERTAKEN} keys) and of the
 * attempts that ended on it ({@code departures}, as many again): up to 8,192 keys per worker gone,
 * for the life of the cluster.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoppedWorkerKeepsNoRecordsTest {

    private static final int TASKS = 50;

    private static LocalCluster cluster() {
        return LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO).stealing(false)
                .forgetReleased(true).build();
    }

    /** Runs {@link #TASKS} tasks on worker 1 and releases them, until worker 1 has handled every release. */
    private static void busyLife(LocalCluster cluster) throws Exception {
        Client client = cluster.client();
        List<ClusterFuture<Integer>> all = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            int v = i;
            all.add(client.submit(TaskSpec.builder("t-" + i, (TaskFunction<Integer>) args -> v)
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
        }
        for (int i = 0; i < TASKS; i++) {
            assertThat(all.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
        }
        all.forEach(ClusterFuture::release);
        Await.until("worker 1 handled every release", Duration.ofSeconds(30),
                () -> of(cluster, 1).get("overtaken") == TASKS && of(cluster, 1).get("stored") == 0);
        assertThat(of(cluster, 1)).as("what worker 1 remembers while it lives (bounded, by design)")
                .containsEntry("overtaken", TASKS).hasEntrySatisfying("departures", n -> assertThat(n).isPositive());
    }

    /** Worker {@code id}'s per-key structures, read also once it is gone or the cluster is closed. */
    private static Map<String, Integer> of(LocalCluster cluster, int id) {
        return cluster.workerRetainedForTests(id);
    }

    @Test
    void aRetiredWorkerKeepsNothingOfTheKeysItSaw() throws Exception {
        try (LocalCluster cluster = cluster()) {
            busyLife(cluster);
            cluster.retire(1).get(30, TimeUnit.SECONDS);
            assertThat(of(cluster, 1)).as("worker 1, retired").isNotEmpty()
                    .allSatisfy((name, size) -> assertThat(size).as(name).isZero());
        }
    }

    @Test
    void aKilledWorkerKeepsNothingOfTheKeysItSaw() throws Exception {
        try (LocalCluster cluster = cluster()) {
            busyLife(cluster);
            cluster.killWorker(1);
            assertThat(of(cluster, 1)).as("worker 1, killed").isNotEmpty()
                    .allSatisfy((name, size) -> assertThat(size).as(name).isZero());
        }
    }

    @Test
    void aClosedClustersWorkersKeepNothingOfTheKeysTheySaw() throws Exception {
        LocalCluster cluster = cluster();
        try {
            busyLife(cluster);
        } finally {
            cluster.close();
        }
        // a caller may keep the closed cluster (or a future whose cleaner refers to its scheduler)
        assertThat(of(cluster, 1)).as("worker 1, closed").isNotEmpty()
                .allSatisfy((name, size) -> assertThat(size).as(name).isZero());
    }
}
