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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A long-lived cluster with {@code forgetReleased} must come back to holding nothing per key once
 * the client released every future: graphs submitted and gathered again and again under the same
 * keys, failing and retried tasks, timed-out waits, a worker killed mid-task and restarted, and a
 * worker retired and replaced. Every per-key structure of the scheduler and of each live worker is
 * read through the package-private {@code retainedForTests} accessors.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterRetentionRegressionTest {

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Client start(int workers, int retries) {
        cluster = LocalCluster.builder().workers(workers).threadsPerWorker(2).latency(Duration.ZERO)
                .retries(retries).forgetReleased(true).build();
        return cluster.client();
    }

    /** Waits (up to 20 s) until every per-key structure is empty, then asserts it; prefixes are bounded by design. */
    private void assertNothingRetained() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Map<String, Integer> seen = retained();
        while (seen.values().stream().anyMatch(v -> v != 0) && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            seen = retained();
        }
        assertThat(seen).as("per-key structures left once every future was released").allSatisfy(
                (name, size) -> assertThat(size).as(name).isZero());
    }

    private Map<String, Integer> retained() {
        Map<String, Integer> m = new java.util.TreeMap<>(cluster.retainedForTests());
        m.remove("durationPrefixes");         // per kind, bounded (DurationEstimates.MAX_PREFIXES)
        // releases that found nothing (each failed task's release, see GraphScheduler.onErred) stay
        // in ClusterWorker.overtaken up to its bound, MAX_OVERTAKEN: reported, owned by its own review
        m.keySet().removeIf(name -> name.endsWith(".overtaken"));
        // the attempts a worker ran lately, a ring of MAX_OVERTAKEN (ClusterWorker.departures), by design
        m.keySet().removeIf(name -> name.endsWith(".departures"));
        return m;
    }

    /** The submissions of one index of a round: returns the futures they made. */
    @FunctionalInterface
    interface Submissions {
        List<ClusterFuture<?>> submit(int i) throws Exception;
    }

    /**
     * One round of a retention test: {@code submit} for each index from 0 to {@code count - 1},
     * then every future it made released, in the order made. The step the tests repeat before
     * they look at what is retained.
     */
    static void releasedRound(int count, Submissions submit) throws Exception {
        List<ClusterFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.addAll(submit.submit(i));
        }
        all.forEach(ClusterFuture::release);
    }

    /** A diamond per round, the same keys every round: each round's records must be forgotten for the next. */
    @Test
    void repeatedDiamondsUnderTheSameKeysLeaveNothing() throws Exception {
        Client client = start(2, 0);
        for (int round = 0; round < 150; round++) {
            int r = round;
            releasedRound(8, i -> {
                int v = r + i;
                ClusterFuture<Integer> x = client.submit("x-" + i, args -> v);
                ClusterFuture<Integer> y = client.submit("y-" + i, args -> (Integer) args.get(0) + 1, x);
                ClusterFuture<Integer> z = client.submit("z-" + i, args -> (Integer) args.get(0) * 2, x);
                ClusterFuture<Integer> w = client.submit("w-" + i,
                        args -> (Integer) args.get(0) + (Integer) args.get(1), y, z);
                assertThat(w.get(30, TimeUnit.SECONDS)).isEqualTo(v + 1 + 2 * v);
                return List.of(x, y, z, w);
            });
        }
        assertNothingRetained();
    }

    /** Tasks that fail for good, with dependents failing with them, and tasks that succeed on their retry. */
    @Test
    void failedAndRetriedTasksLeaveNothing() throws Exception {
        Client client = start(2, 1);
        AtomicInteger attempts = new AtomicInteger();
        releasedRound(200, i -> {
            ClusterFuture<Integer> bad = client.submit("bad-" + i, args -> {
                throw new IllegalStateException("boom");
            });
            ClusterFuture<Integer> after = client.submit("after-" + i, args -> 1, bad);
            ClusterFuture<Integer> flaky = client.submit("flaky-" + i, args -> {
                if (attempts.incrementAndGet() % 2 == 1) {
                    throw new IllegalStateException("first attempt");
                }
                return 3;
            });
            assertThatThrownBy(() -> after.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            assertThat(flaky.get(30, TimeUnit.SECONDS)).isEqualTo(3);
            return List.of(bad, after, flaky);
        });
        assertNothingRetained();
    }

    /** Futures released while their tasks are still waiting or running, after a timed-out wait. */
    @Test
    void futuresReleasedBeforeTheirTasksEndLeaveNothing() throws Exception {
        Client client = start(2, 0);
        CountDownLatch gate = new CountDownLatch(1);
        releasedRound(100, i -> {
            ClusterFuture<Integer> slow = client.submit("slow-" + i, args -> {
                gate.await(30, TimeUnit.SECONDS);
                return 1;
            });
            ClusterFuture<Integer> next = client.submit("next-" + i, args -> 2, slow);
            assertThatThrownBy(() -> next.get(1, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
            return List.of(slow, next);
        });
        gate.countDown();
        assertNothingRetained();
    }

    /** A worker killed while it runs tasks and holds values, then restarted; and a worker retired and replaced. */
    @Test
    void workersLeavingAndRejoiningLeaveNothing() throws Exception {
        Client client = start(3, 3);
        for (int round = 0; round < 6; round++) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            List<ClusterFuture<?>> all = new ArrayList<>();
            List<ClusterFuture<Integer>> sums = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int v = i;
                ClusterFuture<Integer> a = client.submit(TaskSpec.builder("a-" + i, (TaskFunction<Integer>) args -> {
                    started.countDown();
                    gate.await(30, TimeUnit.SECONDS);
                    return v;
                }).restrictions(Restrictions.loose(java.util.Set.of(i % 3))).build());
                ClusterFuture<Integer> b = client.submit("b-" + i, args -> (Integer) args.get(0) + 1, a);
                all.add(a);
                all.add(b);
                sums.add(b);
            }
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            int victim = round % 3;
            cluster.killWorker(victim);
            gate.countDown();
            cluster.restartWorker(victim);
            for (int i = 0; i < sums.size(); i++) {
                assertThat(sums.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i + 1);
            }
            all.forEach(ClusterFuture::release);
        }
        // a retired worker and a new one joining
        cluster.retire(0).get(30, TimeUnit.SECONDS);
        int added = cluster.addWorker();
        cluster.restartWorker(0);
        releasedRound(50, i -> {
            ClusterFuture<Integer> c = client.submit("c-" + i, args -> 5);
            ClusterFuture<Integer> d = client.submit(TaskSpec.builder("d-" + i, (TaskFunction<Integer>) args ->
                    (Integer) args.get(0) * 2).dependsOn(c).restrictions(Restrictions.loose(
                    java.util.Set.of(i % 2 == 0 ? added : 0))).build());
            assertThat(d.get(30, TimeUnit.SECONDS)).isEqualTo(10);
            return List.of(c, d);
        });
        assertNothingRetained();
    }

    /** Futures the client drops without releasing them: their cleaner releases them once collected. */
    @Test
    void futuresDroppedUnreleasedLeaveNothingOnceCollected() throws Exception {
        Client client = start(2, 0);
        for (int i = 0; i < 300; i++) {
            int v = i;
            ClusterFuture<Integer> p = client.submit("p-" + i, args -> v);
            assertThat(client.submit("q-" + i, args -> (Integer) args.get(0) + 1, p).get(30, TimeUnit.SECONDS))
                    .isEqualTo(i + 1);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (retained().values().stream().anyMatch(n -> n != 0) && System.nanoTime() - deadline < 0) {
            System.gc();
            Thread.sleep(20);
        }
        assertNothingRetained();
    }

    /** A task that submits a child and fails after it: its retry submits the child's key again (supersede). */
    @Test
    void retriedTasksResubmittingTheirChildrenLeaveNothing() throws Exception {
        Client client = start(2, 1);
        releasedRound(60, i -> {
            int v = i;
            AtomicInteger runs = new AtomicInteger();
            ClusterFuture<Integer> parent = client.submit("parent-" + i, args -> {
                try (ClusterFuture<Integer> child = client.submit("child-" + v, a -> v * 10)) {
                    int got = child.get(30, TimeUnit.SECONDS);
                    if (runs.incrementAndGet() == 1) {
                        throw new IllegalStateException("first attempt fails after submitting its child");
                    }
                    return got + 1;
                }
            });
            assertThat(parent.get(30, TimeUnit.SECONDS)).isEqualTo(v * 10 + 1);
            return List.of(parent);
        });
        assertNothingRetained();
    }

    /** Tasks moved by steals, some released while queued or in flight between workers. */
    @Test
    void stolenTasksLeaveNothing() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .balanceInterval(Duration.ZERO).forgetReleased(true).build();
        Client client = cluster.client();
        for (int round = 0; round < 5; round++) {
            List<ClusterFuture<Integer>> all = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int v = i;
                all.add(client.submit(TaskSpec.builder("s-" + i, (TaskFunction<Integer>) args -> {
                    Thread.sleep(2);
                    return v;
                }).restrictions(Restrictions.loose(java.util.Set.of(0))).durationHint(Duration.ofMillis(20)).build()));
            }
            for (int i = 0; i < 5; i++) {
                cluster.rebalance();
            }
            for (int i = 0; i < all.size(); i += 2) {
                all.get(i).release();         // released queued, stolen or running
            }
            for (int i = 1; i < all.size(); i += 2) {
                assertThat(all.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
                all.get(i).release();
            }
            assertNothingRetained();
        }
        assertThat(cluster.stats().stealsConfirmed()).as("steals moved tasks").isPositive();
    }

    /** Values spilled to disk under a memory limit: released, nothing stays in memory, on disk or in the records. */
    @Test
    void spilledValuesLeaveNothing() throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .memoryLimitPerWorker(200_000).forgetReleased(true).build();
        Client client = cluster.client();
        List<ClusterFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ClusterFuture<byte[]> big = client.submit("big-" + i, args -> new byte[20_000]);
            ClusterFuture<Integer> len = client.submit("len-" + i, args -> ((byte[]) args.get(0)).length, big);
            assertThat(len.get(30, TimeUnit.SECONDS)).isEqualTo(20_000);
            all.add(big);
            all.add(len);
        }
        assertThat(cluster.stats().workers().stream().mapToLong(ClusterStats.WorkerStats::spilledBytes).sum())
                .as("something spilled").isPositive();
        all.forEach(ClusterFuture::release);
        assertNothingRetained();
        assertThat(cluster.stats().workers().stream().mapToLong(ClusterStats.WorkerStats::spilledBytes).sum())
                .isZero();
    }

    /** Intermediate results released at once, then lost with a killed worker and computed again. */
    @Test
    void lostIntermediatesRecomputedLeaveNothing() throws Exception {
        Client client = start(3, 3);
        for (int round = 0; round < 4; round++) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            List<ClusterFuture<Integer>> ends = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int v = i;
                ClusterFuture<Integer> a = client.submit("ia-" + i, args -> v);
                ClusterFuture<Integer> b = client.submit("ib-" + i, args -> (Integer) args.get(0) + 1, a);
                ClusterFuture<Integer> c = client.submit("ic-" + i, args -> {
                    started.countDown();
                    gate.await(30, TimeUnit.SECONDS);
                    return (Integer) args.get(0) + (Integer) args.get(1);
                }, a, b);
                a.release();
                b.release();
                ends.add(c);
            }
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            int victim = round % 3;
            cluster.killWorker(victim);
            gate.countDown();
            cluster.restartWorker(victim);
            for (int i = 0; i < ends.size(); i++) {
                assertThat(ends.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(2 * i + 1);
                ends.get(i).release();
            }
        }
        assertNothingRetained();
    }

    /** Scattered values and a map over them, gathered and released, round after round under the same keys. */
    @Test
    void scatteredAndMappedValuesLeaveNothing() throws Exception {
        Client client = start(2, 0);
        for (int round = 0; round < 30; round++) {
            List<ClusterFuture<Integer>> parts = client.scatter("part", List.of(1, 2, 3, 4, 5, 6));
            List<ClusterFuture<Integer>> squares = client.map("square",
                    args -> (Integer) args.get(0) * (Integer) args.get(0), parts);
            assertThat(client.gather(squares)).containsExactly(1, 4, 9, 16, 25, 36);
            parts.forEach(ClusterFuture::release);
            squares.forEach(ClusterFuture::release);
        }
        assertNothingRetained();
    }

    /** Futures released while their tasks wait on a task that then fails (with a retry that fails too). */
    @Test
    void futuresReleasedBeforeTheirTasksFailLeaveNothing() throws Exception {
        Client client = start(2, 1);
        CountDownLatch gate = new CountDownLatch(1);
        releasedRound(100, i -> {
            ClusterFuture<Integer> root = client.submit("root-" + i, args -> 1);
            ClusterFuture<Integer> doomed = client.submit("doomed-" + i, args -> {
                gate.await(30, TimeUnit.SECONDS);
                throw new IllegalStateException("fails");
            }, root);
            ClusterFuture<Integer> child = client.submit("child-" + i, args -> 2, doomed, root);
            return List.of(root, doomed, child);
        });
        gate.countDown();
        assertNothingRetained();
    }
}
