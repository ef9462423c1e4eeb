/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster that does not answer has its meters repeat its last figures, so nothing showed that it
 * was stuck. {@code spindle.cluster.stats.age} tells how old the figures are: the time since the
 * read that returned them returned, on the binder's clock (a test's here, so the values are exact).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterStatsAgeTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final GatedCluster cluster = new GatedCluster();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    @AfterEach
    void openTheGates() {
        cluster.openAll();                     // no reader thread stays stuck after the test
    }

    private CountDownLatch block() {
        return cluster.block();
    }

    private void bind() {
        new ClusterMetrics(cluster, "c", Tags.empty(), clock::get).bindTo(registry);
    }

    private Gauge age() {
        return registry.get("spindle.cluster.stats.age").tag("cluster", "c").gauge();
    }

    private double inMemory() {
        return registry.get("spindle.cluster.tasks").tag("cluster", "c").tag("state", "memory").gauge().value();
    }

    @Test
    void theAgeIsInSecondsAndTaggedAsTheOtherMeters() {
        bind();
        assertThat(age().getId().getBaseUnit()).isEqualTo("seconds");
        assertThat(age().getId().getType()).isEqualTo(io.micrometer.core.instrument.Meter.Type.GAUGE);
        assertThat(age().getId().getDescription()).isNotBlank();
    }

    @Test
    void theAgeIsZeroWhileTheClusterAnswersAndGrowsWhileItDoesNot() throws Exception {
        bind();
        cluster.figure = 3;
        assertThat(age().value()).as("each reading reads the cluster: its own read has just returned").isZero();
        clock.addAndGet(5 * SECOND);
        assertThat(age().value()).as("a later reading reads it again").isZero();

        CountDownLatch stuck = block();
        cluster.figure = 4;
        assertThat(inMemory()).as("the first reading waits for the stuck read, then shows the latest figures")
                .isEqualTo(3.0);
        assertThat(age().value()).as("no time on the binder's clock since the latest read returned").isZero();
        clock.addAndGet(7 * SECOND);
        assertThat(age().value()).as("while the read is stuck").isEqualTo(7.0);
        assertThat(inMemory()).as("the figures repeated meanwhile").isEqualTo(3.0);
        clock.addAndGet(SECOND / 2);
        assertThat(age().value()).as("it grows as the clock goes on").isEqualTo(7.5);

        // the stuck read returns: its figures are the latest, as old as the time since then
        cluster.gate = null;
        stuck.countDown();
        Await.until("the figures of the read that returned", () -> inMemory() == 4.0);
        assertThat(age().value()).as("answering again").isZero();
    }

    @Test
    void theAgeIsNaNBeforeTheFirstAnswerAndOnceTheClusterIsClosed() throws Exception {
        CountDownLatch first = block();
        bind();
        assertThat(age().value()).as("before the cluster has ever answered").isNaN();
        clock.addAndGet(3 * SECOND);
        assertThat(age().value()).as("still before").isNaN();

        cluster.gate = null;
        first.countDown();
        Await.until("the first answer", () -> !Double.isNaN(age().value()));
        cluster.closed = new RejectedExecutionException("closed");
        assertThat(age().value()).as("a closed cluster: its meters read NaN, not figures of some age").isNaN();
        assertThat(inMemory()).isNaN();
    }
}
