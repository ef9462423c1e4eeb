/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskEventsTest {

    @Test
    void eachCountedRunIsLoggedWithItsWorkerAndTimesAndAFailureIsMarked() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1)
                .latency(Duration.ZERO).retries(0).build()) {
            List<ClusterFuture<Integer>> parts = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int v = i;
                parts.add(cluster.client().submit("part-" + i, args -> v));
            }
            assertThat(cluster.client().gather(parts)).hasSize(10);
            ClusterFuture<Integer> bad = cluster.client().submit("bad", args -> {
                throw new IllegalStateException("no");
            });
            assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);

            List<TaskEvent> log = cluster.taskEvents();
            assertThat(log).hasSize(11);
            assertThat(log).extracting(TaskEvent::seq).isSorted().doesNotHaveDuplicates();
            assertThat(log).allSatisfy(e -> {
                assertThat(e.worker()).isBetween(0, 1);
                assertThat(e.startNanos()).isLessThanOrEqualTo(e.endNanos());
            });
            assertThat(log).filteredOn(TaskEvent::failed).extracting(TaskEvent::key).containsExactly("bad");
            assertThat(log).extracting(TaskEvent::key).contains("part-0", "part-9");
            ClusterStats stats = cluster.stats();
            assertThat(log).as("one entry per run the workers' executed counts")
                    .hasSize((int) stats.workers().stream().mapToLong(ClusterStats.WorkerStats::executed).sum());
        }
    }

    @Test
    void theLogKeepsOnlyTheMostRecentEntries() {
        RecentLog<Integer> log = new RecentLog<>(3);
        for (int i = 1; i <= 5; i++) {
            log.add(i);
        }
        assertThat(log.copy()).containsExactly(3, 4, 5);
    }

    @Test
    void aClosedClusterRefusesItsLog() {
        LocalCluster cluster = LocalCluster.builder().workers(1).build();
        cluster.close();
        assertThatThrownBy(cluster::taskEvents).isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }
}
