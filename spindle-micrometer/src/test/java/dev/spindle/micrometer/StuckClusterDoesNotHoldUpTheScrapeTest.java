/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A registry reads a cluster's meters on the thread that scrapes it, and each reading called the
 * cluster's {@code stats()}, whose wait for the cluster's scheduler thread ignores interrupts: a
 * cluster whose scheduler was stuck held the scrape for good, and with it every other meter of the
 * registry. Now a cluster that does not answer reads its latest figures (see
 * {@link SlowClusterReadsItsLatestFiguresTest}), and the scrape goes on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StuckClusterDoesNotHoldUpTheScrapeTest {

    /** A cluster whose stats() blocks, once {@code stuck} is set, until released, whatever interrupts. */
    private static final class StuckCluster implements ClusterView {
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean stuck;
        /** The workers its stats report, as they are when stats() returns. */
        volatile List<ClusterStats.WorkerStats> workers = List.of();

        @Override
        public ClusterStats stats() {
            if (stuck) {
                boolean interrupted = false;
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;    // ignored, as the cluster's own wait does
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return new ClusterStats(workers, 0, 0, 0, 0, 0, 0, 0);
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

    /** Every meter's measurements, as a scrape reads them. */
    private static List<Double> scrape(SimpleMeterRegistry registry) {
        List<Double> values = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            for (Measurement m : meter.measure()) {
                values.add(m.getValue());
            }
        }
        return values;
    }

    @Test
    void aScrapeCompletesWhileAClusterDoesNotAnswerAndReadsItAgainOnceItDoes() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        StuckCluster cluster = new StuckCluster();
        new ClusterMetrics(cluster, "c").bindTo(registry);
        registry.gauge("application.gauge", 42.0);
        assertThat(registry.find("spindle.cluster.workers").gauge().value()).isZero();
        cluster.stuck = true;
        ExecutorService scraper = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<List<Double>> scraped = CompletableFuture.supplyAsync(() -> scrape(registry), scraper);
            // a long bound, against a hang only: the property is that the scrape returns at all
            assertThat(scraped).as("a scrape while the cluster's stats() is stuck").succeedsWithin(30, TimeUnit.SECONDS);
            assertThat(scraped.get()).contains(42.0);
            assertThat(registry.find("spindle.cluster.workers").gauge().value())
                    .as("the cluster's latest figures, while it does not answer").isZero();
        } finally {
            cluster.workers = List.of(new ClusterStats.WorkerStats(0, true, 1, 0, 0, 0, 0, 0, false));
            cluster.release.countDown();
            scraper.shutdownNow();
        }
        cluster.stuck = false;
        double workers;
        do {
            workers = registry.find("spindle.cluster.workers").gauge().value();   // bounded by the class timeout
        } while (workers == 0);
        assertThat(workers).as("read again once it answers").isEqualTo(1.0);
    }
}
