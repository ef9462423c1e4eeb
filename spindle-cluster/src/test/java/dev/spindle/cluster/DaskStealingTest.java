/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/**
 * End-to-end checks of the stealing behaviours taken from Dask distributed, with the numbers of
 * its own cases: steal counts and placements are asserted, never wall-clock times.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DaskStealingTest {

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static TaskFunction<Integer> sleeping(long millis, int value) {
        return args -> {
            Thread.sleep(millis);
            return value;
        };
    }

    /**
     * n tasks of 250 ms piled on one of two workers of {@code threads} threads each: one round
     * moves half of them, as Dask's balance() does, so each worker runs n / 2 tasks on its n / 2
     * threads and the job takes one task's time, its lower bound.
     */
    @ParameterizedTest(name = "{0} threads per worker, {1} tasks")
    @CsvSource({"2, 4", "4, 8"})
    void anIdleMultiThreadedWorkerTakesHalfTheBacklog(int threads, int n) throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(threads).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        List<ClusterFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(client.submit(TaskSpec.builder("backlog" + threads + "-" + i, sleeping(250, i))
                    .restrictions(Restrictions.loose(Set.of(0))).durationHint(Duration.ofMillis(250)).build()));
        }
        assertThat(cluster.rebalance()).isEqualTo(n / 2);
        assertThat(client.gather(fs)).hasSize(n);
        ClusterStats stats = cluster.stats();
        assertThat(stats.stealsConfirmed()).isEqualTo(n / 2);
        assertThat(stats.workers()).extracting(ClusterStats.WorkerStats::executed)
                .containsExactly((long) n / 2, (long) n / 2);
    }
    /** A value of a declared size, as Dask's tests use numpy arrays of a known size. */
    record Blob(long sizeInBytes) implements Sized {
    }

    /**
     * Five tasks on one worker that all need one 8 MB value held elsewhere: the worker keeps one
     * state per key and shares a single fetch, so 8 MB move, not 40 MB.
     */
    @org.junit.jupiter.api.Test
    void aValueNeededByManyTasksOnAWorkerIsFetchedOnce() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).latency(Duration.ofMillis(5))
                .bandwidth(1e9).stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        ClusterFuture<Blob> big = client.scatter("big", new Blob(8_000_000), 0);
        big.get();
        List<ClusterFuture<Long>> fs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            fs.add(client.submit(TaskSpec.builder("use-" + i, args -> ((Blob) args.get(0)).sizeInBytes())
                    .dependsOn(big).restrictions(Restrictions.strict(Set.of(1))).build()));
        }
        assertThat(client.gather(fs)).containsOnly(8_000_000L);
        ClusterStats stats = cluster.stats();
        assertThat(stats.bytesTransferred()).isEqualTo(8_000_000L);
        assertThat(stats.workers().get(1).keysHeld()).isEqualTo(6);   // big and the five results
    }

    /**
     * Dask's {@code test_balance_with_longer_task}: a kind learned to be fast turns out to run
     * long; the task queued behind it on the same worker, open to others, is stolen once the
     * worker reports the long runner, instead of waiting for it to finish.
     */
    @org.junit.jupiter.api.Test
    void aTaskQueuedBehindAnUnexpectedlyLongOneIsStolen() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ofMillis(1))
                .bandwidth(1e9).balanceInterval(Duration.ofMillis(50)).build();
        Client client = cluster.client();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        client.submit("slowinc-0", args -> 0).get();            // slowinc is learned to be very fast
        ClusterFuture<Blob> x = client.scatter("x", new Blob(80_000), 0);
        client.submit(TaskSpec.builder("slowadd-0", (TaskFunction<Integer>) args -> {
            Thread.sleep(20);
            return 0;
        }).dependsOn(x).restrictions(Restrictions.strict(Set.of(1))).build()).get();   // slowadd learned: 20 ms
        ClusterFuture<Integer> y = client.submit(TaskSpec.builder("slowinc-1", (TaskFunction<Integer>) args -> {
            release.await(30, TimeUnit.SECONDS);                 // a surprisingly long task
            return 1;
        }).restrictions(Restrictions.strict(Set.of(0))).priority(1).build());
        ClusterFuture<Integer> z = client.submit(TaskSpec.builder("slowadd-1", (TaskFunction<Integer>) args -> {
            Thread.sleep(20);
            return 2;
        }).dependsOn(x).restrictions(Restrictions.loose(Set.of(0))).priority(0).build());
        try {
            assertThat(z.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(y.isDone()).isFalse();
            assertThat(cluster.stats().workers().get(1).executed()).isEqualTo(2);   // slowadd-0 and z
            assertThat(cluster.stealEvents()).anyMatch(e -> e.key().equals("slowadd-1")
                    && e.outcome() == StealEvent.Outcome.CONFIRMED && e.thief() == 1);
        } finally {
            release.countDown();
        }
        assertThat(y.get(20, TimeUnit.SECONDS)).isEqualTo(1);
    }
}
