/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bind that finds an id held for a cluster asks that cluster whether it is closed, by reading
 * its {@code stats()}: a coordinator that is slow to answer, or stuck (a remote one, its network
 * gone). It asked under the lock every bind in the JVM takes, so one stuck coordinator held up the
 * binds of every binder to every registry until it answered. Now it asks outside that lock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowClusterDoesNotHoldUpOtherBindsTest {

    /** A cluster whose stats() blocks, once {@code stuck} is set, until released. */
    private static final class StuckCluster implements ClusterView {
        final CountDownLatch inStats = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean stuck;

        @Override
        public ClusterStats stats() {
            if (stuck) {
                inStats.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new ClusterStats(List.of(), 0, 0, 0, 0, 0, 0, 0);
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

    @Test
    void aBindToAnotherRegistryCompletesWhileABindWaitsForAStuckCluster() throws Exception {
        SimpleMeterRegistry shared = new SimpleMeterRegistry();
        StuckCluster first = new StuckCluster();
        new ClusterMetrics(first, "c").bindTo(shared);
        first.stuck = true;
        StuckCluster second = new StuckCluster();
        // threads of its own: the common pool may have a single one (two cores, JDK 25)
        ExecutorService binders = Executors.newCachedThreadPool();
        CompletableFuture<Void> blocked = CompletableFuture.runAsync(
                () -> new ClusterMetrics(second, "c").bindTo(shared), binders);
        try {
            assertThat(first.inStats.await(30, TimeUnit.SECONDS)).as("the bind asks the first cluster").isTrue();

            SimpleMeterRegistry other = new SimpleMeterRegistry();
            CompletableFuture<Void> unrelated = CompletableFuture.runAsync(
                    () -> new ClusterMetrics(new StuckCluster(), "elsewhere").bindTo(other), binders);
            assertThat(unrelated).as("a bind to another registry while a cluster is slow to answer")
                    .succeedsWithin(10, TimeUnit.SECONDS);
            assertThat(other.find("spindle.cluster.workers").tag("cluster", "elsewhere").gauge()).isNotNull();
        } finally {
            first.release.countDown();
        }
        try {
            // the first cluster answered: it is live, so the second is refused its name as before
            assertThatThrownBy(() -> blocked.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalArgumentException.class);
        } finally {
            binders.shutdownNow();
        }
    }
}
