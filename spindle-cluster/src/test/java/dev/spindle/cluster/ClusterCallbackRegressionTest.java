/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client's futures complete on the cluster's notifier thread, so their callbacks run there. A
 * cluster call made from such a callback must not wait for the notifier, that is for itself: the
 * first close waited for the notifier to end (10 s), and a restart of a killed worker waited for
 * the notifier to report the loss (30 s, then it failed).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterCallbackRegressionTest {

    private static LocalCluster cluster(int workers) {
        return LocalCluster.builder().workers(workers).latency(Duration.ZERO).bandwidth(1e12).stealing(false)
                .balanceInterval(Duration.ZERO).build();
    }

    /**
     * Runs {@code action} in a callback of a task's future, attached before the task can finish so
     * that it runs on the notifier; returns the latch counted down once it returned, and the failure.
     */
    private static CountDownLatch inCallback(LocalCluster cluster, String key, Runnable action,
                                             AtomicReference<Throwable> failure, AtomicReference<String> thread)
            throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        ClusterFuture<Integer> f = cluster.client().submit(key, args -> {
            go.await();
            return 1;
        });
        f.toCompletableFuture().thenRun(() -> {
            thread.set(Thread.currentThread().getName());
            try {
                action.run();
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.countDown();
            }
        });
        go.countDown();
        return done;
    }

    @Test
    void aFirstCloseInAFuturesCallbackDoesNotWaitForItsOwnThread() throws Exception {
        LocalCluster cluster = cluster(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<String> thread = new AtomicReference<>();
        try {
            CountDownLatch done = inCallback(cluster, "cb-close", cluster::close, failure, thread);
            // a close takes milliseconds; before the fix this one waited 10 s for the callback it ran in
            assertThat(done.await(5, TimeUnit.SECONDS)).as("the close in the callback returned").isTrue();
            assertThat(thread.get()).as("the callback's thread").startsWith("cluster-notifier");
            assertThat(failure.get()).as("what the close threw").isNull();
        } finally {
            cluster.close();
        }
    }

    @Test
    void aKillAndRestartInAFuturesCallbackDoesNotWaitForItsOwnThread() throws Exception {
        try (LocalCluster cluster = cluster(2)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicReference<String> thread = new AtomicReference<>();
            CountDownLatch done = inCallback(cluster, "cb-restart", () -> {
                cluster.killWorker(1);
                cluster.restartWorker(1);
            }, failure, thread);
            // before the fix the restart waited 30 s for the notifier to report the loss, then threw
            assertThat(done.await(10, TimeUnit.SECONDS)).as("the restart in the callback returned").isTrue();
            assertThat(thread.get()).as("the callback's thread").startsWith("cluster-notifier");
            assertThat(failure.get()).as("what the kill and restart threw").isNull();
            ClusterFuture<Integer> after = cluster.client().submit(TaskSpec.builder("cb-after", args -> 2)
                    .restrictions(Restrictions.strict(java.util.Set.of(1))).build());
            assertThat(after.get(10, TimeUnit.SECONDS)).as("a task on the restarted worker").isEqualTo(2);
        }
    }
}
