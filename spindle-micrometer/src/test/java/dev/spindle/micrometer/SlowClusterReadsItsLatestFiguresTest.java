/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster's meters read NaN whenever its {@code stats()} had not returned within the scrape's
 * wait, and the answer of a read that came after that wait was dropped: a cluster that always
 * took a little longer than the wait read NaN at every scrape for good, one that answered just
 * after a scrape's deadline read NaN although its figures had come, and one stuck for a moment
 * lost the figures it had shown until then. Now its meters read the latest figures it gave, in
 * time or late; NaN only before its first answer, or (a gauge) once it is closed. The waits are as before:
 * one read in flight, a scrape held at most the wait.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowClusterReadsItsLatestFiguresTest {

    private final GatedCluster cluster = new GatedCluster();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    @AfterEach
    void openTheGates() {
        cluster.openAll();                     // no reader thread stays stuck after the test
    }

    private CountDownLatch block() {
        return cluster.block();
    }

    private Gauge inMemory() {
        return registry.find("spindle.cluster.tasks").tag("state", "memory").gauge();
    }

    private FunctionCounter executed() {
        return registry.find("spindle.cluster.tasks.executed").functionCounter();
    }

    @Test
    void whileAReadHasNotReturnedTheMetersReadTheLatestFiguresNotNaN() throws Exception {
        new ClusterMetrics(cluster, "c").bindTo(registry);
        cluster.figure = 3;
        assertThat(inMemory().value()).isEqualTo(3.0);
        assertThat(executed().count()).isEqualTo(3.0);

        int before = cluster.calls.get();     // each reading in time takes its own snapshot
        CountDownLatch stuck = block();
        cluster.figure = 4;
        // the first reading waits for the read until its deadline, the others answer at once
        assertThat(inMemory().value()).as("a gauge while the cluster's stats() has not returned").isEqualTo(3.0);
        assertThat(executed().count()).as("a counter meanwhile").isEqualTo(3.0);
        assertThat(inMemory().value()).isEqualTo(3.0);
        assertThat(cluster.calls.get() - before).as("reads started: one in flight, however often the meters are read")
                .isEqualTo(1);

        cluster.gate = null;
        stuck.countDown();
        Await.until("the figures of the read that returned late, or of a later one",
                () -> inMemory().value() == 4.0);
        assertThat(executed().count()).isEqualTo(4.0);
    }

    @Test
    void anAnswerThatCameAfterItsDeadlineIsReadByALaterScrape() throws Exception {
        new ClusterMetrics(cluster, "c").bindTo(registry);
        CountDownLatch first = block();
        assertThat(inMemory().value()).as("before the cluster has ever answered").isNaN();
        assertThat(executed().count()).isNaN();

        // the read given up on answers now; the next read takes longer than the wait again
        block();
        cluster.figure = 5;
        first.countDown();
        // each scrape of such a cluster started a read, gave up on it, and dropped its answer
        Await.until("the late answer read by a later scrape", () -> inMemory().value() == 5.0);
        for (int i = 0; i < 3; i++) {
            assertThat(inMemory().value()).as("while the next read has not returned").isEqualTo(5.0);
            assertThat(executed().count()).isEqualTo(5.0);
        }
        assertThat(cluster.calls.get()).as("reads started: never two in flight").isLessThanOrEqualTo(2);
    }

    @Test
    void aClosedClustersGaugesReadNaNNotItsLastFigures() throws Exception {
        new ClusterMetrics(cluster, "c").bindTo(registry);
        cluster.figure = 7;
        assertThat(inMemory().value()).isEqualTo(7.0);
        cluster.closed = new RejectedExecutionException("closed");
        assertThat(inMemory().value()).as("a closed cluster").isNaN();
        block();
        assertThat(inMemory().value()).as("a read not returned after the cluster said it was closed").isNaN();
        assertThat(executed().count()).as("a counter: its last figure (AClustersCountersKeepTheirCountTest)")
                .isEqualTo(7.0);
    }
}
