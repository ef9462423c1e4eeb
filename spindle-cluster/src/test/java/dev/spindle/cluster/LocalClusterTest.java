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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** End-to-end: a real in-process cluster, with explicit balance rounds (no periodic stealing). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalClusterTest {

    /** Executions per key, across all tests (keys are unique per test by a prefix). */
    static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    private LocalCluster cluster;

    private LocalCluster start(int workers, int threads) {
        cluster = LocalCluster.builder().workers(workers).threadsPerWorker(threads)
                .latency(Duration.ZERO).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO)
                .retries(2).build();
        return cluster;
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static int count(String key) {
        return RUNS.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    static int runs(String key) {
        AtomicInteger n = RUNS.get(key);
        return n == null ? 0 : n.get();
    }

    /** Sums 1..leaves by a binary tree of additions, each task counting its executions. */
    static Graph tree(String prefix, int leaves) {
        Graph.Builder g = Graph.builder();
        List<String> level = new ArrayList<>();
        for (int i = 0; i < leaves; i++) {
            String key = prefix + "leaf-" + i;
            long v = i + 1;
            g.task(key, args -> {
                count(key);
                return v;
            });
            level.add(key);
        }
        int n = 0;
        while (level.size() > 1) {
            List<String> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += 2) {
                if (i + 1 == level.size()) {
                    next.add(level.get(i));
                    continue;
                }
                String key = prefix + "add-" + n++;
                g.task(key, args -> {
                    count(key);
                    return (Long) args.get(0) + (Long) args.get(1);
                }, level.get(i), level.get(i + 1));
                next.add(key);
            }
            level = next;
        }
        return g.build();
    }

    /** The example of the project README, as written there. */
    @Test
    void theReadmeExample() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(4).threadsPerWorker(2).build()) {
            Client client = cluster.client();
            ClusterFuture<Integer> x = client.scatter("x", 20, 0);                  // data on worker 0
            ClusterFuture<Integer> y = client.submit("inc-0", args -> (Integer) args.get(0) + 1, x);
            assertThat(y.get()).isEqualTo(21);
        }
    }

    @Test
    void aTreeReductionIsCorrectAndRunsEachTaskOnce() throws Exception {
        Client client = start(3, 2).client();
        Map<String, ClusterFuture<?>> fs = client.submit(tree("t1", 100));
        ClusterFuture<?> root = fs.get("t1add-98");
        assertThat(root.get()).isEqualTo(5050L);
        for (String key : fs.keySet()) {
            assertThat(fs.get(key).get()).isNotNull();
            assertThat(runs(key)).as(key).isEqualTo(1);
        }
        assertThat(cluster.stats().tasksInMemory()).isEqualTo(199);
    }

    @Test
    void stealingSpreadsABacklogAndRunsEachTaskExactlyOnce() throws Exception {
        Client client = start(4, 1).client();
        List<ClusterFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String key = "s2slow-" + i;
            int v = i;
            fs.add(client.submit(TaskSpec.builder(key, args -> {
                count(key);
                Thread.sleep(10);
                return v;
            }).restrictions(Restrictions.loose(Set.of(0))).durationHint(Duration.ofMillis(10)).build()));
        }
        // repeated rounds while the backlog drains: steals race task starts on worker 0
        while (!fs.get(fs.size() - 1).isDone() && cluster.stats().workers().get(0).processing() > 1) {
            cluster.rebalance();
        }
        List<Integer> values = client.gather(fs);
        for (int i = 0; i < 40; i++) {
            assertThat(values.get(i)).isEqualTo(i);
            assertThat(runs("s2slow-" + i)).isEqualTo(1);
        }
        ClusterStats stats = cluster.stats();
        assertThat(stats.stealsConfirmed()).isPositive();
        assertThat(stats.workers().stream().filter(w -> w.executed() > 0).count()).isGreaterThan(1);
        long executed = stats.workers().stream().mapToLong(ClusterStats.WorkerStats::executed).sum();
        assertThat(executed).isEqualTo(40);
        assertThat(cluster.stealEvents()).anyMatch(e -> e.outcome() == StealEvent.Outcome.CONFIRMED);
    }

    @Test
    void strictRestrictionsAreHonouredAndNeverStolen() throws Exception {
        Client client = start(3, 1).client();
        List<ClusterFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int v = i;
            fs.add(client.submit(TaskSpec.builder("r3gpu-" + i, args -> {
                Thread.sleep(2);
                return v;
            }).restrictions(Restrictions.strict(Set.of(1))).durationHint(Duration.ofSeconds(1)).build()));
        }
        assertThat(cluster.rebalance()).isZero();
        client.gather(fs);
        ClusterStats stats = cluster.stats();
        assertThat(stats.workers().get(1).executed()).isEqualTo(20);
        assertThat(stats.workers().get(0).executed()).isZero();
        assertThat(stats.workers().get(2).executed()).isZero();
    }

    @Test
    void aTaskThatKeepsFailingErrsWithItsOwnExceptionAfterTheRetries() {
        Client client = start(2, 1).client();
        ClusterFuture<Integer> bad = client.submit("r4bad-0", args -> {
            count("r4bad-0");
            throw new IllegalStateException("always fails");
        });
        ClusterFuture<Integer> after = client.submit("r4after-0", args -> 1, bad);
        assertThatThrownBy(bad::get).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("always fails");
        assertThatThrownBy(after::get).isInstanceOf(ExecutionException.class)
                .cause().hasMessage("always fails");
        assertThat(runs("r4bad-0")).isEqualTo(3);           // retries(2): three attempts
        assertThat(cluster.stats().tasksErred()).isEqualTo(2);
    }

    @Test
    void aFlakyTaskSucceedsWithinTheRetries() throws Exception {
        Client client = start(2, 1).client();
        ClusterFuture<String> flaky = client.submit("r5flaky-0", args -> {
            if (count("r5flaky-0") < 3) {
                throw new java.io.IOException("transient");
            }
            return "ok";
        });
        assertThat(flaky.get()).isEqualTo("ok");
        assertThat(runs("r5flaky-0")).isEqualTo(3);
    }

    @Test
    void aKilledWorkersResultsAreRecomputedFromTheGraph() throws Exception {
        Client client = start(2, 1).client();
        ClusterFuture<Integer> x = client.scatter("k6x", 20, 0);
        ClusterFuture<Integer> a = client.submit(TaskSpec.builder("k6inc-0", args -> {
            count("k6inc-0");
            return (Integer) args.get(0) + 1;
        }).dependsOn(x).restrictions(Restrictions.loose(Set.of(0))).build());
        assertThat(a.get()).isEqualTo(21);
        cluster.killWorker(0);
        // a's only copy died with worker 0: b needs it, so a (and the scattered x) are redone on 1
        ClusterFuture<Integer> b = client.submit("k6double-0", args -> {
            count("k6double-0");
            return 2 * (Integer) args.get(0);
        }, a);
        assertThat(b.get()).isEqualTo(42);
        assertThat(runs("k6inc-0")).isEqualTo(2);
        assertThat(runs("k6double-0")).isEqualTo(1);
        ClusterStats stats = cluster.stats();
        assertThat(stats.workers().get(0).alive()).isFalse();
        assertThat(stats.workers().get(1).executed()).isEqualTo(3);    // x, a, b
    }

    @Test
    void aTaskRunningOnAKilledWorkerIsRunAgainElsewhere() throws Exception {
        Client client = start(2, 1).client();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ClusterFuture<Integer> stuck = client.submit(TaskSpec.builder("k7stuck-0", args -> {
            if (count("k7stuck-0") == 1) {
                started.countDown();
                never.await();         // interrupted when its worker dies
            }
            return 7;
        }).restrictions(Restrictions.loose(Set.of(1))).build());
        started.await();
        cluster.killWorker(1);
        assertThat(stuck.get()).isEqualTo(7);
        assertThat(runs("k7stuck-0")).isEqualTo(2);
        assertThat(cluster.stats().workers().get(0).executed()).isEqualTo(1);
    }

    @Test
    void aStrictTaskWhoseWorkersAreAllDeadErrsClearly() throws Exception {
        // it fails once no allowed worker has joined within noWorkerTimeout: a second here, not
        // the default 30 s this test waited out (a wait, not zero: the path the default takes)
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).retries(2).noWorkerTimeout(Duration.ofSeconds(1))
                .build();
        Client client = cluster.client();
        cluster.killWorker(1);
        ClusterFuture<Integer> f = client.submit(TaskSpec.builder("k8only-0", args -> 1)
                .restrictions(Restrictions.strict(Set.of(1))).build());
        assertThatThrownBy(f::get).cause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("k8only-0").hasMessageContaining("none joined within");
    }

    @Test
    void closeFailsPendingFuturesAndRejectsNewWork() throws Exception {
        Client client = start(1, 1).client();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ClusterFuture<Integer> f = client.submit("c9wait-0", args -> {
            started.countDown();
            never.await();
            return 1;
        });
        started.await();
        cluster.close();
        assertThatThrownBy(f::get).cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("c9wait-0");
        assertThatThrownBy(() -> client.submit("c9late-0", args -> 1)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> cluster.killWorker(0)).isInstanceOf(RejectedExecutionException.class);
        cluster.close();    // idempotent
    }

    @Test
    void everyCallAfterCloseIsRejectedSayingSo() {
        start(2, 1).close();
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls = List.of(
                () -> cluster.addWorker(1), () -> cluster.restartWorker(0), () -> cluster.retire(1),
                () -> cluster.killWorker(0), () -> cluster.rebalance(), () -> cluster.stats(),
                () -> cluster.stealEvents(), () -> cluster.taskEvents());
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : calls) {
            assertThatThrownBy(call).isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("closed");
        }
    }

    @Test
    void scatterMapGather() throws Exception {
        Client client = start(3, 1).client();
        List<ClusterFuture<Integer>> parts = client.scatter("m10part", List.of(1, 2, 3, 4));
        List<ClusterFuture<Integer>> squares = client.map("m10sq", args -> (Integer) args.get(0) * (Integer) args.get(0), parts);
        assertThat(client.gather(squares)).containsExactly(1, 4, 9, 16);
        assertThat(squares.get(2).key()).isEqualTo("m10sq-2");
        assertThat(squares.get(0).toCompletableFuture().get()).isEqualTo(1);
    }

    @Test
    void badInputIsRejectedWithTheReason() {
        Client client = start(2, 1).client();
        client.submit("b11a-0", args -> 1);
        assertThatThrownBy(() -> client.submit("b11a-0", args -> 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("b11a-0");
        assertThatThrownBy(() -> client.scatter("b11x", new Object(), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Serializable");
        assertThatThrownBy(() -> client.scatter("b11y", 1, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("worker 5");
        assertThatThrownBy(() -> Graph.builder().task("p-0", args -> 1, "q-0").task("q-0", args -> 1, "p-0").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
        assertThatThrownBy(() -> TaskSpec.builder(null, args -> 1)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> LocalCluster.builder().workers(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workers");
        assertThatThrownBy(() -> cluster.killWorker(7)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aResultThatCannotBeMeasuredErrsTheTask() {
        Client client = start(1, 1).client();
        ClusterFuture<Object> f = client.submit("b12opaque-0", args -> new Object());
        assertThatThrownBy(f::get).cause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("b12opaque-0");
    }

    @Test
    void dependenciesOnOtherWorkersAreFetchedAndCounted() throws Exception {
        cluster = LocalCluster.builder().workers(2).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).build();
        Client client = cluster.client();
        ClusterFuture<Sized> big = client.scatter("d13big", new Block(5_000), 0);
        ClusterFuture<Long> size = client.submit(TaskSpec.builder("d13size-0", args -> ((Sized) args.get(0)).sizeInBytes())
                .dependsOn(big).restrictions(Restrictions.strict(Set.of(1))).build());
        assertThat(size.get()).isEqualTo(5_000L);
        ClusterStats stats = cluster.stats();
        assertThat(stats.bytesTransferred()).isEqualTo(5_000L);
        assertThat(stats.workers().get(1).memoryBytes()).isGreaterThanOrEqualTo(5_000L);
    }

    @Test
    void aFailureAtTheHeadOfALongChainErrsTheWholeChain() {
        Client client = start(1, 1).client();
        Graph.Builder g = Graph.builder().task("l14-0", args -> {
            throw new ArithmeticException("head");
        });
        for (int i = 1; i < 20_000; i++) {
            g.task("l14-" + i, args -> 1, "l14-" + (i - 1));
        }
        Map<String, ClusterFuture<?>> fs = client.submit(g.build());
        assertThatThrownBy(() -> fs.get("l14-19999").get()).cause().isInstanceOf(ArithmeticException.class);
        assertThat(cluster.stats().tasksErred()).isEqualTo(20_000);
    }

    @Test
    void aLongLostChainIsRecomputed() throws Exception {
        Client client = start(2, 1).client();
        Graph.Builder g = Graph.builder().task(TaskSpec.builder("l15-0", args -> 0L)
                .restrictions(Restrictions.loose(Set.of(0))).build());
        for (int i = 1; i < 5_000; i++) {
            g.task(TaskSpec.builder("l15-" + i, args -> (Long) args.get(0) + 1).dependsOn("l15-" + (i - 1))
                    .restrictions(Restrictions.loose(Set.of(0))).build());
        }
        ClusterFuture<?> last = client.submit(g.build()).get("l15-4999");
        assertThat(last.get()).isEqualTo(4999L);
        cluster.killWorker(0);
        ClusterFuture<Long> next = client.submit("l15-next", args -> (Long) args.get(0) + 1, last);
        assertThat(next.get()).isEqualTo(5000L);
    }

    record Block(long bytes) implements Sized, java.io.Serializable {
        @Override
        public long sizeInBytes() {
            return bytes;
        }
    }
}
