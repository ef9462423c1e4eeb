/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A future made by one cluster's client, handed to another cluster's client, must be refused by
 * every method that takes a future, naming the key, instead of binding to the other cluster's
 * task of the same key (issue 11).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForeignFutureTest {

    private LocalCluster a;
    private LocalCluster b;
    private ClusterFuture<Integer> fromA;
    private ClusterFuture<Integer> ownX;

    @BeforeEach
    void start() throws Exception {
        a = LocalCluster.builder().workers(1).threadsPerWorker(1).stealing(false).build();
        b = LocalCluster.builder().workers(1).threadsPerWorker(1).stealing(false).build();
        fromA = a.client().submit("x", args -> 1);
        ownX = b.client().submit("x", args -> 1000);    // same key, other cluster, other value
        assertThat(fromA.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(ownX.get(30, TimeUnit.SECONDS)).isEqualTo(1000);
    }

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    @Test
    void submitRefusesAnotherClustersFutureAsADependency() {
        assertThatThrownBy(() -> b.client().submit("y", args -> (Integer) args.get(0) + 1, fromA))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x'").hasMessageContaining("another cluster")
                .hasMessageContaining("'y'");
    }

    @Test
    void aSpecWithAnotherClustersFutureIsRefused() {
        TaskSpec<Integer> spec = TaskSpec.builder("y", args -> (Integer) args.get(0) + 1).dependsOn(fromA)
                .durationHint(Duration.ZERO).build();
        assertThatThrownBy(() -> b.client().submit(spec))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'")
                .hasMessageContaining("another cluster");
    }

    @Test
    void aGraphWithAnotherClustersFutureIsRefusedAndAddsNothing() throws Exception {
        Graph g = Graph.builder()
                .task("z", args -> 2)
                .task(TaskSpec.builder("y", args -> (Integer) args.get(0) + 1).dependsOn(fromA).build())
                .build();
        assertThatThrownBy(() -> b.client().submit(g))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'")
                .hasMessageContaining("another cluster");
        // nothing of the refused graph was added: both keys are still free
        assertThat(b.client().submit("y", args -> (Integer) args.get(0) + 1, ownX).get(30, TimeUnit.SECONDS))
                .isEqualTo(1001);
        assertThat(b.client().submit("z", args -> 3).get(30, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    void mapRefusesAnotherClustersFuture() {
        assertThatThrownBy(() -> b.client().map("m", args -> args.get(0), List.of(ownX, fromA)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'")
                .hasMessageContaining("another cluster");
    }

    @Test
    void gatherRefusesAnotherClustersFuture() {
        assertThatThrownBy(() -> b.client().gather(List.of(ownX, fromA)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'")
                .hasMessageContaining("another cluster");
    }

    @Test
    void thisClustersOwnFuturesStillWork() throws Exception {
        ClusterFuture<Integer> y = b.client().submit("y", args -> (Integer) args.get(0) + 1, ownX);
        assertThat(b.client().gather(List.of(ownX, y))).containsExactly(1000, 1001);
        assertThat(b.client().gather(b.client().map("m", args -> args.get(0), List.of(y)))).containsExactly(1001);
    }
}
