/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A future kept past its cluster's close refers to the cluster's scheduler (its release does,
 * through the cleaner), and an application may keep the closed cluster itself: the closed
 * scheduler must hold nothing of the graphs it ran. It dropped its task records, but kept its
 * logs (up to 11,000 events, each naming a key, which no call reads once closed) and the durations
 * it had learned (up to 4,096 prefixes), so that an application building clusters one after
 * another and keeping a result of each kept all of them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosedClusterKeepsNoLogsTest {

    @Test
    void aClosedSchedulerKeepsNoLogNorLearnedDuration() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO).build();
        ClusterFuture<Integer> kept;
        try {
            Client client = cluster.client();
            for (int i = 0; i < 20; i++) {
                int v = i;
                assertThat(client.submit("kind" + i + "-x", args -> v).get(30, TimeUnit.SECONDS)).isEqualTo(i);
            }
            kept = client.submit("kept", args -> 42);
            assertThat(kept.get(30, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(cluster.taskEvents()).as("what the log held while open").hasSize(21);
        } finally {
            cluster.close();
        }
        assertThat(cluster.closedSchedulerForTests()).allSatisfy((name, size) -> assertThat(size).as(name).isZero());
        assertThat(kept.get()).as("a completed future keeps its value past the close").isEqualTo(42);
    }
}
