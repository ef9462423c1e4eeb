/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The running counts the scheduler keeps instead of walks (TaskState.pendingDependents,
 * TaskState.dependenciesNotInMemory, WorkerState's transfer totals) checked against a recount from
 * scratch after every event ({@link LocalCluster#checkCountsForTests}), on every path that changes
 * a task's state: duplicates in a task's inputs, failures and retries, resubmission by a retried
 * task (supersede), lost, restarted, joining and retiring workers, stealing, releases while
 * dependants wait, forgetting released records, and a memory limit.
 */
class ClusterCountsSecondReviewRegressionTest {

    private static final Map<String, AtomicInteger> ATTEMPTS = new ConcurrentHashMap<>();

    private static void await(String what, LocalCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (cluster.retainedForTests().get("holds") != 0) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting until %s: %s %s", what,
                    cluster.retainedForTests(), cluster.stats()).isNegative();
            Thread.sleep(5);
        }
    }


    /**
     * An input named twice by one task counts twice among its pending dependants (two entries of
     * the task's inputs) and once among the task's inputs not in memory (distinct), as it enters
     * and leaves memory, as the task waits, runs and finishes, and as the futures are released.
     */
    @Test
    void anInputNamedTwiceCountsRightInBothCounts() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).build()) {
            cluster.checkCountsForTests();
            Client client = cluster.client();
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> a = client.submit("a", args -> {
                gate.await(30, SECONDS);
                return 2;
            });
            ClusterFuture<Integer> b = client.submit("b", args -> 3);
            ClusterFuture<Integer> d = client.submit(TaskSpec.<Integer>builder("d", args -> {
                int s = 0;
                for (Object o : args) {
                    s += (Integer) o;
                }
                return s;
            }).dependsOn("a", "a", "b", "a").build());
            assertThat(b.get(30, SECONDS)).isEqualTo(3);
            cluster.checkCountsForTests();    // d waits on a (three entries, one distinct input not in memory)
            b.release();                      // d still needs b
            cluster.checkCountsForTests();
            gate.countDown();
            assertThat(d.get(30, SECONDS)).isEqualTo(9);
            cluster.checkCountsForTests();
            a.release();
            d.release();
            await("nothing is held", cluster);
            cluster.checkCountsForTests();
        }
    }

    /**
     * A retried task resubmits its nested keys, and a dependant (finished) of a replaced record is
     * relinked to the new one (GraphScheduler.supersede): both counts of the new record and of the
     * relinked dependant match a recount, also when the dependant names the nested key twice.
     */
    @Test
    void resubmittedNestedKeysKeepTheCountsRight() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).retries(2)
                .latency(Duration.ZERO).build()) {
            cluster.checkCountsForTests();
            Client client = cluster.client();
            AtomicInteger attempts = new AtomicInteger();
            ClusterFuture<Integer> outer = client.submit("outer", args -> {
                int attempt = attempts.incrementAndGet();
                ClusterFuture<Integer> inner = client.submit("outer-inner", x -> 21);
                ClusterFuture<Integer> twice = client.submit(TaskSpec.<Integer>builder("outer-twice",
                        x -> (Integer) x.get(0) + (Integer) x.get(1)).dependsOn("outer-inner", "outer-inner").build());
                try {
                    int v = twice.get(30, SECONDS) + inner.get(30, SECONDS);
                    if (attempt < 3) {
                        throw new IOException("attempt " + attempt + " fails after its nested tasks");
                    }
                    return v;
                } finally {
                    inner.release();          // else only the cleaner, after a GC, would release them
                    twice.release();
                }
            });
            assertThat(outer.get(30, SECONDS)).isEqualTo(63);
            cluster.checkCountsForTests();
            outer.release();
            await("nothing is held", cluster);
            cluster.checkCountsForTests();
        }
    }

    /**
     * Random graphs whose tasks name inputs more than once, with failures retried, futures
     * released while dependants still wait, and workers killed, restarted, added and retired
     * while periodic stealing moves tasks: the counts match a recount after every event, every
     * result is right, and once every future is released no value is held.
     */
    @Test
    void randomGraphsUnderChurnKeepTheCountsRight() throws Exception {
        for (int seed = 1; seed <= 6; seed++) {
            churn(seed, seed % 2 == 0);
        }
    }

    private static void churn(int seed, boolean forget) throws Exception {
        Random random = new Random(seed);
        String tag = "c" + seed + (forget ? "f" : "k") + "-";
        int n = 60;
        long[] expected = new long[n];
        Graph.Builder g = Graph.builder();
        for (int i = 0; i < n; i++) {
            List<String> deps = new ArrayList<>();
            long sum = i;
            int inputs = i == 0 ? 0 : random.nextInt(5);
            for (int k = 0; k < inputs; k++) {
                int d = i - 1 - random.nextInt(Math.min(i, 8));   // near ones, often the same twice
                deps.add(tag + d);
                sum += expected[d];
            }
            expected[i] = sum % 1_000_003;
            String key = tag + i;
            long self = i;
            boolean failsFirst = random.nextInt(6) == 0;
            g.task(TaskSpec.builder(key, args -> {
                int attempt = ATTEMPTS.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
                Thread.sleep(1);
                if (failsFirst && attempt == 1) {
                    throw new IOException("first attempt of " + key);
                }
                long s = self;
                for (Object a : args) {
                    s += (Long) a;
                }
                return s % 1_000_003;
            }).dependsOn(deps.toArray(new String[0])).durationHint(Duration.ofMillis(3)).build());
        }
        try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).balanceInterval(Duration.ofMillis(1)).saturatedOccupancy(Duration.ZERO)
                .retries(2).forgetReleased(forget).build()) {
            cluster.checkCountsForTests();
            Client client = cluster.client();
            Map<String, ClusterFuture<?>> fs = client.submit(g.build());
            // released at once: the dependants still waiting keep them until they have run
            for (int i = 0; i < n; i += 3) {
                fs.get(tag + i).release();
            }
            cluster.checkCountsForTests();
            cluster.rebalance();
            cluster.killWorker(1);
            cluster.checkCountsForTests();
            int added = cluster.addWorker();
            cluster.checkCountsForTests();
            cluster.restartWorker(1);
            cluster.checkCountsForTests();
            CompletableFuture<Void> retired = cluster.retire(2);
            cluster.checkCountsForTests();
            for (int i = 1; i < n; i++) {
                if (i % 3 == 0) {
                    continue;
                }
                Object v = fs.get(tag + i).get(60, SECONDS);
                assertThat(v).as("result of %s", tag + i).isEqualTo(expected[i]);
            }
            retired.get(60, SECONDS);
            cluster.checkCountsForTests();
            if (!forget) {
                // a released key asked for by name is computed again, from inputs released meanwhile
                ClusterFuture<?> again = client.submit(TaskSpec.builder(tag + "again", args -> (Long) args.get(0)
                        + (Long) args.get(1)).dependsOn(tag + (n - 3), tag + (n - 3)).build());
                assertThat(again.get(60, SECONDS)).isEqualTo(2 * expected[n - 3]);
                again.release();
            }
            cluster.killWorker(added);
            cluster.checkCountsForTests();
            for (int i = 1; i < n; i++) {
                if (i % 3 != 0) {
                    fs.get(tag + i).release();
                }
            }
            await("nothing is held", cluster);
            cluster.checkCountsForTests();
            if (forget) {
                Await.until("every record is forgotten", () -> cluster.taskRecords() == 0);
                cluster.checkCountsForTests();
            }
        }
    }

    /**
     * A failure at the head of waiting dependants errs them (leaving the pending ones), and with a
     * memory limit the workers spill and pause: the counts match a recount after every event.
     */
    @Test
    void failuresAndAMemoryLimitKeepTheCountsRight() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).retries(0).memoryLimitPerWorker(4_000_000).forgetReleased(true).build()) {
            cluster.checkCountsForTests();
            Client client = cluster.client();
            ClusterFuture<Integer> head = client.submit("head", args -> {
                throw new IOException("head fails");
            });
            List<ClusterFuture<Object>> tails = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                tails.add(client.submit(TaskSpec.<Object>builder("tail-" + i, args -> 1)
                        .dependsOn("head", i > 0 ? "tail-" + (i - 1) : "head").build()));
            }
            for (ClusterFuture<Object> t : tails) {
                try {
                    t.get(30, SECONDS);
                } catch (ExecutionException expected) {
                    // erred with head
                }
            }
            cluster.checkCountsForTests();
            head.release();
            tails.forEach(ClusterFuture::release);
            List<ClusterFuture<byte[]>> blocks = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                blocks.add(client.submit("block-" + i, args -> new byte[500_000]));
            }
            ClusterFuture<Integer> total = client.submit(TaskSpec.<Integer>builder("total", args -> {
                int s = 0;
                for (Object o : args) {
                    s += ((byte[]) o).length;
                }
                return s;
            }).dependsOn("block-0", "block-0", "block-1", "block-2").build());
            assertThat(total.get(30, SECONDS)).isEqualTo(2_000_000);
            blocks.forEach(ClusterFuture::release);
            total.release();
            await("nothing is held", cluster);
            cluster.checkCountsForTests();
        }
    }
}
