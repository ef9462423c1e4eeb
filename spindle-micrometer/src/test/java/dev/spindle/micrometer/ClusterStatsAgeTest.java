/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import dev.spindle.testkit.Await;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    /**
     * A cluster whose {@code stats()} reports {@link #figure} as its tasks in memory; a call
     * entered while {@link #gate} is set waits for it to open whatever interrupts, then throws
     * {@link #closed} if set.
     */
    private static final class SlowCluster implements ClusterView {
        volatile CountDownLatch gate;
        volatile RuntimeException closed;
        volatile int figure;

        @Override
        public ClusterStats stats() {
            CountDownLatch g = gate;
            if (g != null) {
                Await.ignoringInterrupts(g);
            }
            if (closed != null) {
                throw closed;
            }
            return new ClusterStats(List.of(), 0, 0, 0, 0, 0, figure, 0, 0, 0, 0, 0);
        }

        @Override
        public List<StealEvent> stealEvents() {
            return List.of();
        }

        @Override
        public List<TaskEvent> taskEvents() {
            return List.of();
        }
    }

    private final SlowCluster cluster = new SlowCluster();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    /** Every gate a test set, opened after it so that no reader thread stays stuck. */
    private final List<CountDownLatch> gates = new CopyOnWriteArrayList<>();

    @AfterEach
    void openTheGates() {
        gates.forEach(CountDownLatch::countDown);
    }

    private CountDownLatch block() {
        CountDownLatch g = new CountDownLatch(1);
        gates.add(g);
        cluster.gate = g;
        return g;
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
