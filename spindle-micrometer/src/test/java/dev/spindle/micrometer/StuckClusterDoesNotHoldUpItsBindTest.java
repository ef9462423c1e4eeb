/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.spindle.testkit.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bind that meets an id held for a cluster asks that cluster whether it is closed, by reading
 * its {@code stats()}. It asked outside the lock of every bind, but with no limit: a coordinator
 * whose scheduler thread was stuck (a remote one, its network gone) held that bind's caller for
 * good, as it held the scrape before the scrape's reads were bounded. Now the bind waits for the
 * answer as a scrape does, and a cluster that has not answered by then is taken as live: the bind
 * is refused, saying so, and registers nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StuckClusterDoesNotHoldUpItsBindTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CountDownLatch release = new CountDownLatch(1);
    // threads of its own: the common pool may have a single one (two cores, JDK 25)
    private final ExecutorService binders = Executors.newCachedThreadPool();

    @AfterEach
    void release() {
        release.countDown();               // no reader thread stays stuck after the test
        binders.shutdownNow();
    }

    /**
     * What {@code bind} threw, waited for with a long bound against a hang only (a bind still
     * waiting then fails the test): the property is that the bind returns at all.
     */
    private static Throwable refusal(CompletableFuture<Void> bind) throws Exception {
        try {
            bind.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the bind has not returned while the cluster it met is stuck", e);
        }
        throw new AssertionError("the bind was not refused");
    }

    @Test
    void aBindMeetingAStuckClusterReturnsWhileItIsStuckAndIsRefused() throws Exception {
        GatedCluster stuck = new GatedCluster();
        new ClusterMetrics(stuck, "c").bindTo(registry);
        stuck.gate = release;

        GatedCluster next = new GatedCluster();
        CompletableFuture<Void> bind = CompletableFuture.runAsync(
                () -> new ClusterMetrics(next, "c").bindTo(registry), binders);
        assertThat(refusal(bind)).as("a bind that meets a cluster whose stats() is stuck")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has not answered");
        assertThat(release.getCount()).as("returned while the cluster is still stuck").isEqualTo(1);
        assertThat(registry.find("spindle.cluster.workers").tag("cluster", "c").gauges())
                .as("the refused bind registered nothing: the stuck cluster's meter is the only one").hasSize(1);

        // another bind meanwhile does not wait for that cluster again: it is refused at once too
        CompletableFuture<Void> again = CompletableFuture.runAsync(
                () -> new ClusterMetrics(next, "c").bindTo(registry), binders);
        assertThat(refusal(again)).isInstanceOf(IllegalArgumentException.class);
        assertThat(release.getCount()).isEqualTo(1);
    }

    @Test
    void onceTheStuckClusterAnswersThatItIsClosedABindReplacesIt() throws Exception {
        GatedCluster stuck = new GatedCluster();
        new ClusterMetrics(stuck, "c").bindTo(registry);
        stuck.gate = release;
        GatedCluster next = new GatedCluster();
        CompletableFuture<Void> refused = CompletableFuture.runAsync(
                () -> new ClusterMetrics(next, "c").bindTo(registry), binders);
        assertThat(refusal(refused)).isInstanceOf(IllegalArgumentException.class);

        // its stuck call returns, saying it is closed: the ask in flight returns, and a later
        // bind's ask (a read of its own once that one has returned) is answered that it is closed
        stuck.closed = new RejectedExecutionException("the cluster is closed");
        release.countDown();
        Await.until("the replacement binds once the old cluster answers that it is closed", () -> {
            try {
                new ClusterMetrics(next, "c").bindTo(registry);
                return true;
            } catch (IllegalArgumentException stillAnswering) {
                return false;                  // its read in flight had not returned yet
            }
        });
        assertThatCode(() -> new ClusterMetrics(next, "c").bindTo(registry)).doesNotThrowAnyException();
        assertThat(registry.find("spindle.cluster.workers").tag("cluster", "c").gauge().value())
                .as("the replacement's meter").isZero();
    }
}
