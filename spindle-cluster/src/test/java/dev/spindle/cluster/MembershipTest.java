/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Workers joining late, retiring and rejoining after a crash ({@link LocalCluster#addWorker},
 * {@link LocalCluster#retire}, {@link LocalCluster#restartWorker}). Every task counts its
 * executions, so "no result lost, none run twice" is checked per key, not only by the values.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MembershipTest {

    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    /** The name of the pool thread each key last started on ("cluster-worker-ID-worker-N"). */
    private final Map<String, String> startedOn = new ConcurrentHashMap<>();
    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A task that counts its runs under its key, waits for {@code gate}, and returns {@code value}. */
    private TaskFunction<Integer> counted(String key, CountDownLatch gate, int value) {
        return args -> {
            startedOn.put(key, Thread.currentThread().getName());
            runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            int sum = value;
            for (Object a : args) {
                sum += (Integer) a;
            }
            return sum;
        };
    }

    /** Submits a counted task under {@code restrictions}. */
    private ClusterFuture<Integer> on(Restrictions restrictions, String key, CountDownLatch gate, int value) {
        return cluster.client().submit(TaskSpec.builder(key, counted(key, gate, value)).restrictions(restrictions)
                .build());
    }

    /**
     * How many of the tasks counted so far started on worker {@code id}. Not always one per
     * thread of the worker: its pool's starvation watch may start a spare thread, which starts the
     * next queued task while the first one still waits, when the worker's thread is seen waiting
     * without a time limit twice in a row with tasks queued (as it is, under load, while it waits
     * for a lock the transport's thread holds on the worker's ready queue).
     */
    private long startedOnWorker(int id) {
        String prefix = "cluster-worker-" + id + "-";
        return startedOn.values().stream().filter(name -> name.startsWith(prefix)).count();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    private void assertEachRanOnce(int tasks) {
        assertThat(runs).hasSize(tasks);
        assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    }

    @Test
    void aWorkerAddedLateStealsFromALoadedOne() throws Exception {
        cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        CountDownLatch gate = new CountDownLatch(1);
        List<ClusterFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String key = "late-" + i;
            fs.add(client.submit(TaskSpec.builder(key, counted(key, gate, i)).durationHint(Duration.ofSeconds(1))
                    .build()));
        }
        await(() -> runs.size() == 1, "worker 0 runs its first task");

        int id = cluster.addWorker();
        assertThat(id).isEqualTo(1);
        assertThat(cluster.workers()).isEqualTo(2);
        assertThat(cluster.rebalance()).isPositive();
        await(() -> cluster.stats().stealsConfirmed() > 0, "a steal to the new worker is confirmed");
        gate.countDown();

        assertThat(client.gather(fs)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        ClusterStats stats = cluster.stats();
        assertThat(stats.workers()).hasSize(2);
        assertThat(stats.workers().get(1).alive()).isTrue();
        assertThat(stats.workers().get(1).executed()).isPositive();
        assertThat(stats.workers().get(0).executed() + stats.workers().get(1).executed()).isEqualTo(8);
        assertEachRanOnce(8);
        assertThat(cluster.stealEvents()).anySatisfy(e -> assertThat(e.thief()).isEqualTo(1));
    }

    @Test
    void aWorkerAddedLateIsPlacedOnAndCanBeScatteredTo() throws Exception {
        cluster = LocalCluster.builder().workers(1).stealing(false).build();
        int id = cluster.addWorker(3);
        ClusterFuture<Integer> x = cluster.client().scatter("x-late", 5, id);
        ClusterFuture<Integer> y = cluster.client().submit(TaskSpec.builder("y-late",
                (TaskFunction<Integer>) args -> (Integer) args.get(0) + 1).dependsOn(x)
                .restrictions(Restrictions.strict(Set.of(id))).build());
        assertThat(y.get()).isEqualTo(6);
        ClusterStats.WorkerStats added = cluster.stats().workers().get(id);
        assertThat(added.threads()).isEqualTo(3);
        assertThat(added.executed()).isEqualTo(2);
    }

    /**
     * Retiring a worker in the middle of a two-level graph: its running task finishes there, its
     * queued ones move, the results only it holds are copied, and the second level (which needs
     * them) runs without recomputing anything: every task runs exactly once.
     */
    @Test
    void retiringUnderLoadKeepsEveryResultAndRunsEachTaskOnce() throws Exception {
        cluster = LocalCluster.builder().workers(3).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).build();
        Client client = cluster.client();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch open = new CountDownLatch(0);
        List<ClusterFuture<Integer>> firsts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String key = "first-" + i;
            firsts.add(client.submit(TaskSpec.builder(key, counted(key, gate, i))
                    .restrictions(Restrictions.loose(Set.of(i % 3))).build()));
        }
        await(() -> startedOnWorker(0) > 0 && startedOnWorker(1) > 0 && startedOnWorker(2) > 0,
                "each worker runs a first-level task");

        var retired = cluster.retire(1);
        assertThat(retired).isNotDone();      // its running task holds it
        // Its queued tasks move away through steal requests, which the worker answers while its
        // thread is busy; open the gate only then, or the thread may start its next queued task
        // first (allowed: a task that started finishes where it runs) and run more than one. What
        // it still processes is what started there (one task, or more if a spare thread started
        // one: see startedOnWorker)
        await(() -> cluster.stats().workers().get(1).processing() == startedOnWorker(1),
                "the retiring worker's queue moved away");
        long keptByTheRetiring = startedOnWorker(1);
        gate.countDown();
        List<ClusterFuture<Integer>> seconds = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String key = "second-" + i;
            seconds.add(client.submit(key, counted(key, open, 100), firsts.get(i)));
        }
        retired.get(30, TimeUnit.SECONDS);

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            expected.add(100 + i);
        }
        assertThat(client.gather(seconds)).containsExactlyElementsOf(expected);
        assertEachRanOnce(24);
        ClusterStats.WorkerStats one = cluster.stats().workers().get(1);
        assertThat(one.alive()).isFalse();
        assertThat(one.processing()).isZero();
        assertThat(one.executed()).as("only the tasks running when it was retired").isEqualTo(keptByTheRetiring);
        assertThat(startedOnWorker(1)).as("nothing started there once it retired").isEqualTo(keptByTheRetiring);
        assertThat(cluster.stats().workers().get(0).executed() + cluster.stats().workers().get(2).executed())
                .isEqualTo(24 - keptByTheRetiring);
    }

    /** The values only a retiring worker holds are copied, so a task submitted later finds them. */
    @Test
    void aRetiredWorkersOnlyCopiesAreCopiedNotRecomputed() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false).build();
        Client client = cluster.client();
        CountDownLatch open = new CountDownLatch(0);
        ClusterFuture<Integer> src = on(Restrictions.loose(Set.of(1)), "src", open, 41);
        assertThat(src.get()).isEqualTo(41);
        assertThat(cluster.stats().workers().get(1).keysHeld()).isEqualTo(1);

        cluster.retire(1).get(30, TimeUnit.SECONDS);
        assertThat(cluster.stats().workers().get(0).keysHeld()).isEqualTo(1);
        ClusterFuture<Integer> use = client.submit("use", counted("use", open, 1), src);
        assertThat(use.get()).isEqualTo(42);
        assertEachRanOnce(2);
        assertThat(cluster.stats().workers().get(1).alive()).isFalse();
        assertThat(cluster.stats().workers().get(1).keysHeld()).isZero();
    }

    @Test
    void aCrashedWorkerRestartedUnderItsIdRejoinsAndGetsWork() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        ClusterFuture<Integer> stuck = on(Restrictions.loose(Set.of(1)), "stuck", gate, 7);
        await(() -> runs.containsKey("stuck"), "worker 1 runs its task");
        cluster.killWorker(1);
        cluster.killWorker(1);                // gone already: nothing more
        cluster.restartWorker(1);             // at once: waits for the scheduler to let the old one go
        gate.countDown();
        assertThat(stuck.get()).isEqualTo(7);
        assertThat(runs.get("stuck").get()).as("abandoned on the crash, rerun once").isEqualTo(2);

        CountDownLatch open = new CountDownLatch(0);
        ClusterFuture<Integer> after = on(Restrictions.strict(Set.of(1)), "after", open, 3);
        assertThat(after.get()).isEqualTo(3);
        ClusterStats.WorkerStats one = cluster.stats().workers().get(1);
        assertThat(one.alive()).isTrue();
        assertThat(one.executed()).as("counted by the new incarnation").isEqualTo(1);
        assertThat(cluster.workers()).isEqualTo(2);
    }

    @Test
    void aRetiredWorkerCanRestartAndACrashedOneBeReplacedByANewId() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false).build();
        cluster.retire(0).get(30, TimeUnit.SECONDS);
        cluster.restartWorker(0);
        cluster.killWorker(1);
        int id = cluster.addWorker();
        assertThat(id).isEqualTo(2);
        CountDownLatch open = new CountDownLatch(0);
        ClusterFuture<Integer> on0 = on(Restrictions.strict(Set.of(0)), "on0", open, 0);
        ClusterFuture<Integer> on2 = on(Restrictions.strict(Set.of(2)), "on2", open, 2);
        assertThat(on0.get() + on2.get()).isEqualTo(2);
        assertThat(cluster.stats().workers()).extracting(ClusterStats.WorkerStats::alive)
                .containsExactly(true, false, true);
    }

    @Test
    void badMembershipCallsAreRefusedWithTheReason() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false).build();
        assertThatThrownBy(() -> cluster.retire(7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no worker 7");
        assertThatThrownBy(() -> cluster.retire(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cluster.restartWorker(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no worker 9");
        assertThatThrownBy(() -> cluster.restartWorker(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("worker 0 is running");
        assertThatThrownBy(() -> cluster.addWorker(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threads");

        CountDownLatch gate = new CountDownLatch(1);
        ClusterFuture<Integer> pending = on(Restrictions.loose(Set.of(1)), "pending", gate, 1);
        cluster.retire(0).get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> cluster.retire(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gone");
        assertThatThrownBy(() -> cluster.retire(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("last active worker");
        gate.countDown();
        assertThat(pending.get()).isEqualTo(1);
        assertThatThrownBy(() -> cluster.client().scatter("far", 1, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no worker 2");

        cluster.close();
        assertThatThrownBy(() -> cluster.addWorker()).isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        assertThatThrownBy(() -> cluster.retire(1)).isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }

    @Test
    void closingWhileAWorkerRetiresFailsItsCompletion() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        on(Restrictions.loose(Set.of(0)), "hold", gate, 1);
        await(() -> runs.containsKey("hold"), "worker 0 runs its task");
        var retired = cluster.retire(0);
        cluster.close();
        gate.countDown();
        assertThatThrownBy(() -> retired.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed before worker 0 retired");
    }
}
