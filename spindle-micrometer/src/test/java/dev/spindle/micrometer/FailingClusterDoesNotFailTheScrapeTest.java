/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster whose {@code stats()} threw something other than saying it is closed (a coordinator's
 * scheduler failing in its stats, an {@code Error}) had that rethrown on the scraping thread when
 * the read answered in time: a gauge's Micrometer catches, but a function counter's does not, so
 * the scrape of the whole registry failed, every other meter unreported with it, at each scrape
 * for as long as the cluster failed, which is what the bounded reads are there to prevent. The
 * same failure answering a second late read NaN, as the class comment says of a cluster whose
 * {@code stats()} threw. Now the gauges read NaN whenever it threw (the counters their last
 * figures), and the failure is logged once per episode.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailingClusterDoesNotFailTheScrapeTest {

    /** Every meter's every measurement read, as a registry's scrape or publisher reads them. */
    private static List<Double> scrape(MeterRegistry registry) {
        List<Double> values = new ArrayList<>();
        for (Meter m : registry.getMeters()) {
            for (Measurement v : m.measure()) {
                values.add(v.getValue());
            }
        }
        return values;
    }

    @Test
    void theScrapeGoesOnAndTheClustersMetersReadNaN() {
        GatedCluster cluster = new GatedCluster();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ClusterMetrics(cluster, "c").bindTo(registry);
        Counter other = registry.counter("app.requests");
        other.increment();
        cluster.figure = 7;
        assertThat(registry.get("spindle.cluster.tasks.executed").functionCounter().count()).isEqualTo(7.0);

        for (RuntimeException failure : List.of(new IllegalArgumentException("a bug in the coordinator's stats"),
                new NullPointerException())) {
            cluster.closed = failure;          // thrown, but not that it is closed
            assertThatCode(() -> scrape(registry)).as("a scrape with %s", failure).doesNotThrowAnyException();
            // a counter keeps its last figure (AClustersCountersKeepTheirCountTest), a gauge reads NaN
            assertThat(registry.get("spindle.cluster.tasks.executed").functionCounter().count()).isEqualTo(7.0);
            assertThat(registry.get("spindle.cluster.steals").tag("outcome", "stale").functionCounter().count())
                    .isEqualTo(0.0);
            assertThat(registry.get("spindle.cluster.tasks").tag("state", "memory").gauge().value()).isNaN();
            assertThat(registry.get("spindle.cluster.stats.age").gauge().value()).isNaN();
            assertThat(other.count()).isEqualTo(1.0);
        }

        cluster.closed = null;                 // answers again
        cluster.figure = 9;
        assertThat(registry.get("spindle.cluster.tasks.executed").functionCounter().count()).isEqualTo(9.0);
    }

    @Test
    void anErrorToo() {
        GatedCluster cluster = new GatedCluster();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ClusterMetrics(cluster, "e").bindTo(registry);
        cluster.error = new AssertionError("a broken invariant in the coordinator");
        assertThatCode(() -> scrape(registry)).doesNotThrowAnyException();
        assertThat(registry.get("spindle.cluster.tasks.executed").functionCounter().count()).isNaN();
    }

    @Test
    void theFailureIsLoggedOncePerEpisode() {
        Logger logger = Logger.getLogger(ClusterMetrics.class.getName());
        List<LogRecord> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            GatedCluster cluster = new GatedCluster();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new ClusterMetrics(cluster, "logged").bindTo(registry);
            IllegalArgumentException failure = new IllegalArgumentException("failing");
            cluster.closed = failure;
            scrape(registry);
            scrape(registry);
            assertThat(warnings).as("one episode, many reads").hasSize(1);
            assertThat(warnings.get(0).getThrown()).isSameAs(failure);
            assertThat(warnings.get(0).getMessage()).contains("logged");

            cluster.closed = null;
            scrape(registry);
            cluster.closed = failure;
            scrape(registry);
            assertThat(warnings).as("a second episode").hasSize(2);
        } finally {
            logger.removeHandler(handler);
        }
    }
}
