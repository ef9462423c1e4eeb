/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A retiring worker asks for a copy of each value only it holds and records the copy it asked
 * ({@code WorkerState.replicas}, and the copies that failed, {@code replicaFailures}) until it is
 * removed. One lost while it retires (killed as its retirement waits for a task it runs) kept those
 * records for good: its record stays while its id is not reused, one entry per value it was
 * copying, each naming its target's record. Round after round of values held by a worker that
 * retires and is lost, then released, must leave the scheduler's per-key structures as they were,
 * read through the package-private {@code retainedForTests}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerLostWhileRetiringForgetsItsCopiesTest {

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Values only a new worker holds, a retirement that waits for its running task, then its loss. */
    private void round(Client client, int r) throws Exception {
        int id = cluster.addWorker();
        List<ClusterFuture<Integer>> values = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int v = i;
            values.add(client.submit(TaskSpec.builder("v-" + r + "-" + i, (TaskFunction<Integer>) args -> v)
                    .restrictions(Restrictions.strict(Set.of(id))).build()));
        }
        for (int i = 0; i < values.size(); i++) {
            assertThat(values.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
        }
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        ClusterFuture<Integer> running = client.submit(TaskSpec.builder("run-" + r, (TaskFunction<Integer>) args -> {
            started.countDown();
            gate.await(30, TimeUnit.SECONDS);
            return 1;
        }).restrictions(Restrictions.loose(Set.of(id))).build());
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> retired = cluster.retire(id);
        // the copies are asked and made while the running task holds the retirement
        awaitCopies();
        assertThat(retired).isNotDone();
        cluster.killWorker(id);
        gate.countDown();
        assertThat(retired).succeedsWithin(Duration.ofSeconds(30));
        assertThat(running.get(30, TimeUnit.SECONDS)).isEqualTo(1);   // run again elsewhere
        for (int i = 0; i < values.size(); i++) {
            assertThat(values.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
        }
        running.release();
        values.forEach(ClusterFuture::release);
    }

    /** Waits until every value of the retiring worker has a copy on worker 0. */
    private void awaitCopies() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (cluster.workerRetainedForTests(0).get("stored") < 5 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(cluster.workerRetainedForTests(0).get("stored")).as("copies on worker 0").isEqualTo(5);
    }

    private Map<String, Integer> settled() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Map<String, Integer> m = cluster.retainedForTests();
        while ((m.get("tasks") != 0 || m.get("holds") != 0) && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            m = cluster.retainedForTests();
        }
        return m;
    }

    @Test
    void workersLostWhileRetiringLeaveNoCopyRecords() throws Exception {
        cluster = LocalCluster.builder().workers(1).threadsPerWorker(2).latency(Duration.ZERO)
                .forgetReleased(true).build();
        Client client = cluster.client();
        for (int r = 0; r < 2; r++) {
            round(client, r);
        }
        Map<String, Integer> early = settled();
        for (int r = 2; r < 12; r++) {
            round(client, r);
        }
        Map<String, Integer> late = settled();
        assertThat(late.get("replicas")).as("copy records after 12 rounds, against %s after 2", early.get("replicas"))
                .isEqualTo(early.get("replicas")).isZero();
        assertThat(late.get("tasks")).isZero();
        assertThat(late.get("holds")).isZero();
    }
}
