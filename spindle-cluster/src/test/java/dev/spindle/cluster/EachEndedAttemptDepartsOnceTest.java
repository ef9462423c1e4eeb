/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker remembers the attempts that ended on it lately, the newest
 * {@link ClusterWorker#MAX_OVERTAKEN} ({@code departures}), one entry per attempt: a task that
 * finished recorded its departure twice (before it stored its value and again as it finished),
 * which halved how many attempts the ring remembers and cost every finished task a second
 * record and atomic increment.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EachEndedAttemptDepartsOnceTest {

    @Test
    void finishedAndFailedTasksEachLeaveOneDeparture() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).retries(0).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Integer>> all = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int v = i;
                all.add(client.submit("t-" + i, args -> {
                    if (v % 3 == 0) {
                        throw new IllegalStateException("fails on purpose");
                    }
                    return v;
                }));
            }
            for (ClusterFuture<Integer> f : all) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException expected) {
                    // every third task fails
                }
            }
            // each attempt records its departure before its report, and all are reported
            assertThat(cluster.workerRetainedForTests(0)).containsEntry("departures", 30);
        }
    }
}
