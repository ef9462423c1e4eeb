/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker over its pause fraction with values that cannot spill stays paused until something
 * it holds is released. Before the fix, when every worker was so paused and none had a task
 * running, the tasks queued on them never started and never failed: the caller's future never
 * completed, with no sign of why (as in Dask). A value that could spill but was kept in memory as
 * the one just stored paused its worker the same way. Now such tasks fail with an exception that
 * names the memory limit, the paused workers and the bytes that cannot spill, and the kept value
 * spills; a worker that can still make progress keeps the old behaviour: the paused one waits.
 * The first two tests failed on the code before the fix: after 20 s the future was still
 * incomplete, its worker paused with 9,000,000 (and 8,500,027) bytes in memory.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryStallRegressionTest {

    private static final int MB = 1_000_000;
    private static final long LIMIT = 10L * MB;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    private static LocalCluster.Builder cluster(int workers) {
        return LocalCluster.builder().workers(workers).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).retries(0).memoryLimitPerWorker(LIMIT);
    }

    /** Nine values of 1 MB that cannot spill on worker 0: 9 MB, over its 8 MB pause fraction. */
    private static List<ClusterFuture<Unspillable>> pauseWorkerZero(Client client, String prefix) throws Exception {
        List<ClusterFuture<Unspillable>> held = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ClusterFuture<Unspillable> f = client.submit(TaskSpec.builder(prefix + i, args -> new Unspillable(MB))
                    .restrictions(Restrictions.strict(Set.of(0))).build());
            f.get(20, TimeUnit.SECONDS);
            held.add(f);
        }
        return held;
    }

    @Test
    void aTaskNoPausedWorkerCanEverStartFailsNamingTheMemoryInsteadOfHanging() throws Exception {
        try (LocalCluster cluster = cluster(1).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Unspillable>> held = pauseWorkerZero(client, "pinned-");
            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();

            CompletableFuture<Integer> next = client.submit("next", args -> 42).toCompletableFuture();
            awaitQuietly(next);
            assertThat(next).as("'next', queued on the only worker, paused with 9 MB that cannot spill (stats: %s)",
                    cluster.stats()).isCompletedExceptionally();
            assertThat(cause(next)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'next'")
                    .hasMessageContaining("worker 0")
                    .hasMessageContaining("9000000 bytes")
                    .hasMessageContaining("cannot spill")
                    .hasMessageContaining("memory limit of 10000000 bytes");

            // a task submitted while the cluster stays so is told at once, not queued for good
            CompletableFuture<Integer> later = client.submit("later", args -> 43).toCompletableFuture();
            awaitQuietly(later);
            assertThat(later).as("'later', submitted to the stalled cluster").isCompletedExceptionally();
            assertThat(cause(later)).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot spill");

            // once the client releases what it holds, the worker runs tasks again
            held.forEach(ClusterFuture::release);
            assertThat(client.submit("again", args -> 44).get(20, TimeUnit.SECONDS)).isEqualTo(44);
        }
    }

    @Test
    void aValueKeptInMemoryAsTheOneJustStoredSpillsWhenItsWorkerIsPausedInsteadOfStallingIt() throws Exception {
        try (LocalCluster cluster = cluster(1).build()) {
            Client client = cluster.client();
            List<ClusterFuture<?>> held = new ArrayList<>();
            for (int i = 0; i < 7; i++) {             // 7 MB that cannot spill: over the target, under the pause
                ClusterFuture<Unspillable> f = client.submit("pinned-" + i, args -> new Unspillable(MB));
                f.get(20, TimeUnit.SECONDS);
                held.add(f);
            }
            // 1.5 MB that can spill, kept in memory as the value just stored: 8.5 MB, paused
            ClusterFuture<byte[]> spillable = client.submit("spillable", args -> new byte[3 * MB / 2]);
            spillable.get(20, TimeUnit.SECONDS);
            held.add(spillable);

            CompletableFuture<Integer> next = client.submit("next", args -> 42).toCompletableFuture();
            awaitQuietly(next);
            assertThat(next).as("'next', on a worker paused by a value it could spill (stats: %s)", cluster.stats())
                    .isCompletedWithValue(42);
            assertThat(cluster.stats().workers().get(0).spilledBytes()).as("bytes spilled").isPositive();
            assertThat(held).hasSize(8);
        }
    }

    @Test
    void aPausedWorkerWaitsWhileAnotherWorkerRunsATaskWhoseEndFreesItsValues() throws Exception {
        try (LocalCluster cluster = cluster(2).build()) {
            Client client = cluster.client();
            CountDownLatch go = new CountDownLatch(1);
            ClusterFuture<Integer> slow = client.submit(TaskSpec.<Integer>builder("slow", args -> {
                go.await();
                throw new IllegalArgumentException("slow gave up");
            }).restrictions(Restrictions.strict(Set.of(1))).build());
            List<ClusterFuture<Unspillable>> pinned = pauseWorkerZero(client, "pinned-");
            List<ClusterFuture<?>> inputs = new ArrayList<>(pinned);
            inputs.add(slow);
            // holds the values on worker 0 until slow ends; the client holds them no longer
            ClusterFuture<Integer> gate = client.submit("gate", args -> 0, inputs.toArray(new ClusterFuture<?>[0]));
            pinned.forEach(ClusterFuture::release);
            CompletableFuture<Integer> next = client.submit(TaskSpec.builder("next", args -> 42)
                    .restrictions(Restrictions.strict(Set.of(0))).build()).toCompletableFuture();

            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();
            Thread.sleep(500);                        // several of worker 0's reports: no failure while slow runs
            assertThat(next).as("'next', while worker 1 runs a task that can free worker 0's values").isNotDone();

            go.countDown();                           // slow fails, gate with it, and worker 0's values go
            assertThat(next.get(20, TimeUnit.SECONDS)).isEqualTo(42);
            CompletableFuture<Integer> g = gate.toCompletableFuture();
            awaitQuietly(g);
            assertThat(cause(g)).as("gate fails with slow's own exception").hasMessageContaining("slow gave up");
        }
    }

    /** Waits up to 20 s for {@code f}, however it ends; the assertion that follows says what was expected. */
    private static void awaitQuietly(CompletableFuture<?> f) throws InterruptedException {
        try {
            f.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // see the assertion
        }
    }

    private static Throwable cause(CompletableFuture<?> f) {
        try {
            f.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause();
        }
    }
}
