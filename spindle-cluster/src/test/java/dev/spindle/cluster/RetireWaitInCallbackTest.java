/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A retirement's future completes on the cluster's notifier thread, which also runs the callbacks
 * of the client's futures. A wait for it in such a callback (retire one worker once a task is done,
 * and wait until it is gone) waited for its own thread: it never ended, and every later completion
 * of the cluster's futures queued behind it. It now throws {@link IllegalStateException}, as a wait
 * for a client's future there does; off the notifier the wait works as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RetireWaitInCallbackTest {

    private static LocalCluster cluster() {
        return LocalCluster.builder().workers(3).latency(Duration.ZERO).bandwidth(1e12).stealing(false)
                .balanceInterval(Duration.ZERO).build();
    }

    @Test
    void aWaitForARetirementInAFuturesCallbackThrowsRatherThanWaitingForItsOwnThread() throws Exception {
        try (LocalCluster cluster = cluster()) {
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicReference<CompletableFuture<Void>> retirement = new AtomicReference<>();
            ClusterFuture<Integer> f = cluster.client().submit("rc-task", args -> {
                go.await();
                return 1;
            });
            f.toCompletableFuture().thenRun(() -> {
                try {
                    CompletableFuture<Void> r = cluster.retire(1);
                    retirement.set(r);
                    r.join();
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    done.countDown();
                }
            });
            go.countDown();
            // before the fix the join waited for the notifier, its own thread, for good
            assertThat(done.await(10, TimeUnit.SECONDS)).as("the wait in the callback returned").isTrue();
            assertThat(failure.get()).as("what the wait threw").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("callback");
            // the retirement itself goes on, and a wait off the notifier sees it end
            retirement.get().get(30, TimeUnit.SECONDS);
            assertThat(cluster.stats().workers().get(1).alive()).as("worker 1 alive").isFalse();
            ClusterFuture<Integer> after = cluster.client().submit("rc-after", args -> 2);
            assertThat(after.get(10, TimeUnit.SECONDS)).as("a later task's value").isEqualTo(2);
        }
    }

    @Test
    void aCallbackChainedOnARetirementMayWaitForAnotherOnceItIsDone() throws Exception {
        try (LocalCluster cluster = cluster()) {
            // a stage derived from a retirement's future completes on the notifier too: a wait there
            // for a retirement already done returns its value rather than throwing
            CompletableFuture<Void> first = cluster.retire(1);
            first.get(30, TimeUnit.SECONDS);
            CompletableFuture<Boolean> chained = first.thenApply(v -> first.join() == null);
            assertThat(chained.get(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
