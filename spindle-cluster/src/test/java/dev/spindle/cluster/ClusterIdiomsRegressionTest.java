/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Java idioms a Dask user writes against the cluster's futures: waiting for one inside a task
 * (Dask's {@code worker_client}), and inside a callback of another. Each test failed on the code
 * before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterIdiomsRegressionTest {

    private static LocalCluster cluster(int workers) {
        return LocalCluster.builder().workers(workers).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .build();
    }

    /**
     * A task on the only worker thread submits another and waits for it with a time limit. The
     * wait was invisible to the worker's pool (its starvation watch sees only untimed waits), so
     * the inner task had no thread until the wait timed out; the task's retry then failed on its
     * own inner key, "already submitted". The wait is now a blocking section: the pool adds a
     * thread for its duration.
     */
    @Test
    void aTimedGetInsideATaskOnTheOnlyThreadGetsTheInnerValue() throws Exception {
        try (LocalCluster cluster = cluster(1)) {
            Client client = cluster.client();
            ClusterFuture<Integer> outer = client.submit("outer", args -> {
                ClusterFuture<Integer> inner = client.submit("inner", a -> 7);
                return inner.get(5, TimeUnit.SECONDS) + 1;
            });
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo(8);
        }
    }

    /** The same through {@link Client#gather}, with every thread of two workers waiting. */
    @Test
    void gathersInsideTasksOnEveryThreadGetTheirInnerValues() throws Exception {
        try (LocalCluster cluster = cluster(2)) {
            Client client = cluster.client();
            ClusterFuture<Integer> a = client.submit("a", args -> {
                ClusterFuture<Integer> inner = client.submit("inner-a", x -> 1);
                return client.gather(List.of(inner)).get(0);
            });
            ClusterFuture<Integer> b = client.submit("b", args -> {
                ClusterFuture<Integer> inner = client.submit("inner-b", x -> 2);
                return inner.get(5, TimeUnit.SECONDS);
            });
            assertThat(client.gather(List.of(a, b))).containsExactly(1, 2);
        }
    }

    /**
     * 300 tasks on one worker of one thread each submit a task and wait for it without a limit.
     * Each wait took a thread: the pool's spare threads (at most 256) all ended up waiting, with
     * the tasks they waited for still queued, and the worker hung for good with no error (23 of
     * the 300 finished). A waiting task now runs its worker's ready tasks meanwhile.
     */
    @Test
    void moreWaitingTasksThanAPoolHasSpareThreadsAllFinish() throws Exception {
        try (LocalCluster cluster = cluster(1)) {
            Client client = cluster.client();
            List<ClusterFuture<Integer>> outer = new java.util.ArrayList<>();
            for (int i = 0; i < 300; i++) {
                int n = i;
                outer.add(client.submit("outer-" + i, args -> client.submit("inner-" + n, a -> n).get() + 1));
            }
            CompletableFuture<?>[] all = outer.stream().map(ClusterFuture::toCompletableFuture)
                    .toArray(CompletableFuture[]::new);
            assertThat(CompletableFuture.allOf(all)).as("every waiting task finished")
                    .succeedsWithin(Duration.ofSeconds(30));
            for (int i = 0; i < 300; i++) {
                assertThat(outer.get(i).get()).isEqualTo(i + 1);
            }
        }
    }

    /**
     * The guard of the fix above: while {@code x} waits for its inner task, the job queued before
     * that inner task waits for {@code x} itself. Run on x's thread, under x, it could never see x
     * finish; the waiting thread runs only the task it waits for.
     */
    @Test
    void aWaitingTaskDoesNotRunAQueuedTaskThatWaitsForIt() throws Exception {
        try (LocalCluster cluster = cluster(1)) {
            Client client = cluster.client();
            java.util.concurrent.atomic.AtomicReference<ClusterFuture<Integer>> xRef =
                    new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.CountDownLatch submitted = new java.util.concurrent.CountDownLatch(1);
            ClusterFuture<Integer> x = client.submit("x", args -> {
                submitted.await();                    // j is queued before x's inner task
                return client.submit("x-inner", a -> 1).get() + 1;
            });
            xRef.set(x);
            ClusterFuture<Integer> j = client.submit("j", args -> xRef.get().get() + 10);
            submitted.countDown();
            assertThat(client.gather(List.of(x, j))).containsExactly(2, 12);
        }
    }

    /**
     * A callback of a future's {@code toCompletableFuture()} runs on the notifier thread, which
     * completes every future of the client: a get there of a future not yet done waited on the
     * very thread that would complete it, silently until its time limit (or for good without one),
     * and held every other future of the cluster meanwhile. It now throws at once.
     */
    @Test
    void aGetInsideAFuturesCallbackThrowsInsteadOfWaitingForItsOwnThread() throws Exception {
        try (LocalCluster cluster = cluster(2)) {
            Client client = cluster.client();
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            ClusterFuture<Integer> a = client.submit("a", args -> {
                go.await();                           // the callback is attached first, so it runs on the notifier
                return 1;
            });
            CompletableFuture<Integer> chained = a.toCompletableFuture().thenApply(v -> {
                try {
                    return client.submit("b", x -> 2).get(20, TimeUnit.SECONDS) + v;
                } catch (InterruptedException | ExecutionException | java.util.concurrent.TimeoutException e) {
                    throw new IllegalStateException("the wait ended with " + e, e);
                }
            });
            go.countDown();
            assertThat(chained).failsWithin(Duration.ofSeconds(10))
                    .withThrowableOfType(ExecutionException.class)
                    .havingCause().isInstanceOf(IllegalStateException.class)
                    .withMessageContaining("callback");
            assertThat(client.submit("c", x -> 3).get(10, TimeUnit.SECONDS)).as("the cluster still completes futures")
                    .isEqualTo(3);
        }
    }
}
