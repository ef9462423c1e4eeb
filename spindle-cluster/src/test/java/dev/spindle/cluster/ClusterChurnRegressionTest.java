/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Graphs submitted while workers are killed, added, restarted and retired, futures released and
 * tasks fail (once, or for good): every key ends exactly once, with the value a sequential model
 * of the graph gives, or with the failure of a task it depends on; nothing hangs. The operations
 * come from fixed seeds; what is checked does not depend on how they interleave with the cluster.
 */
class ClusterChurnRegressionTest {

    private static final long MOD = 1_000_003;
    /** Runs per key, to fail flaky tasks on their first run only. */
    private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    /** The model of one key: its value, or the keys of the failing tasks whose failure it ends with. */
    private static final class Node {
        final String key;
        final long value;
        final Set<String> failRoots;
        ClusterFuture<?> future;
        boolean released;

        Node(String key, long value, Set<String> failRoots) {
            this.key = key;
            this.value = value;
            this.failRoots = failRoots;
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void everyKeyEndsOnceWithTheModelsValueOrItsDependencysFailure(long seed) throws Exception {
        churn(seed, false);
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    void withForgetReleasedEveryKeyStillEndsOnceWithTheModelsValue(long seed) throws Exception {
        churn(seed, true);
    }

    /**
     * As above, with a quarter of the tasks strictly restricted to one worker, and kills that may
     * take every worker down: a task that no live worker may run waits for its worker to come back
     * (CoordinatorSettings.noWorkerTimeout), so every key still ends with the model's value once the
     * gone workers are restarted at the end. A wait for one key is left out: its worker may be down.
     */
    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23, 24, 25, 26})
    void withStrictTasksAndEveryWorkerLostKeysWaitForTheirWorkers(long seed) throws Exception {
        churn(seed, seed % 2 == 0, true);
    }

    private static void churn(long seed, boolean forget) throws Exception {
        churn(seed, forget, false);
    }

    private static void churn(long seed, boolean forget, boolean strict) throws Exception {
        Random rnd = new Random(seed);
        String tag = "ch" + seed + "-";
        List<Node> nodes = new ArrayList<>();
        List<CompletableFuture<Void>> retirements = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.builder().workers(4).threadsPerWorker(2)
                .latency(Duration.ofMillis(1)).bandwidth(1e9).balanceInterval(Duration.ofMillis(5))
                .retries(2).forgetReleased(forget).noWorkerTimeout(Duration.ofSeconds(120))
                // a task queued on several of the workers killed here errs with WorkerLostException
                // once over the limit, which the model does not predict: the limit is tested elsewhere
                .allowedWorkerLosses(Integer.MAX_VALUE).build()) {
            Client client = cluster.client();
            // what the test did to each id: killed or retired ones are not counted active
            Set<Integer> active = new HashSet<>(Set.of(0, 1, 2, 3));
            Map<Integer, CompletableFuture<Void>> retiring = new java.util.HashMap<>();
            for (int op = 0; op < 300; op++) {
                int r = rnd.nextInt(100);
                if (r < 50 || nodes.size() < 3) {
                    nodes.add(submit(client, tag + nodes.size(), nodes, rnd, cluster.workers(), forget, strict));
                } else if (r < 60) {
                    String key = tag + nodes.size();
                    long v = rnd.nextInt(1000);
                    Node n = new Node(key, v, Set.of());
                    n.future = client.scatter(key, v, rnd.nextInt(cluster.workers()));
                    nodes.add(n);
                } else if (r < 72) {
                    Node n = nodes.get(rnd.nextInt(nodes.size()));
                    if (!n.released) {
                        n.released = true;
                        n.future.release();
                    }
                } else if (r < 78) {
                    List<Integer> ids = new ArrayList<>(active);
                    if (ids.size() > (strict ? 0 : 2)) {
                        int id = ids.get(rnd.nextInt(ids.size()));
                        cluster.killWorker(id);
                        active.remove(id);
                    }
                } else if (r < 82) {
                    List<Integer> ids = new ArrayList<>(active);
                    if (ids.size() > 2) {
                        int id = ids.get(rnd.nextInt(ids.size()));
                        CompletableFuture<Void> done = cluster.retire(id);
                        retirements.add(done);
                        retiring.put(id, done);
                        active.remove(id);
                    }
                } else if (r < 85) {
                    if (active.size() < 6) {
                        active.add(cluster.addWorker());
                    }
                } else if (r < 89) {
                    for (int id = 0; id < cluster.workers(); id++) {
                        CompletableFuture<Void> ret = retiring.get(id);
                        if (!active.contains(id) && (ret == null || ret.isDone())) {
                            cluster.restartWorker(id);
                            retiring.remove(id);
                            active.add(id);
                            break;
                        }
                    }
                } else if (r < 93 && !strict) {
                    Node n = nodes.get(rnd.nextInt(nodes.size()));
                    if (!n.released) {
                        try {
                            n.future.get(30, TimeUnit.SECONDS);
                        } catch (ExecutionException expected) {
                            // checked at the end
                        }
                    }
                } else {
                    Thread.sleep(rnd.nextInt(3));
                }
            }
            if (strict) {
                // the workers still down come back, so that every task waiting for one runs
                for (CompletableFuture<Void> ret : retirements) {
                    ret.get(30, TimeUnit.SECONDS);
                }
                for (int id = 0; id < cluster.workers(); id++) {
                    if (!active.contains(id)) {
                        cluster.restartWorker(id);
                        active.add(id);
                    }
                }
            }
            // every released key, needed again by key, is computed again with the same value
            int before = nodes.size();
            for (int i = 0; i < before; i++) {
                Node n = nodes.get(i);
                if (n.released && !forget) {
                    String key = tag + "again-" + i;
                    Node again = new Node(key, n.value, n.failRoots);
                    again.future = client.submit(TaskSpec.builder(key, args -> args.get(0)).dependsOn(n.key).build());
                    nodes.add(again);
                }
            }
            for (Node n : nodes) {
                if (!n.released) {
                    check(n);
                }
            }
            for (CompletableFuture<Void> ret : retirements) {
                ret.get(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A worker killed while it retires, whose retirement then completes anyway (its last value
     * released) before the scheduler hears of the kill: the report of the loss, still travelling
     * when the id restarts, must not take down the fresh worker under that id.
     */
    @Test
    void theLateLossOfARetiredWorkerDoesNotTakeDownItsRestartedSuccessor() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1)
                .latency(Duration.ofMillis(200)).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO)
                .build()) {
            Client client = cluster.client();
            ClusterFuture<Integer> v = client.submit(TaskSpec.builder("ch-late-v", args -> 7)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            assertThat(v.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            CompletableFuture<Void> retired = cluster.retire(1);   // waits for a copy of v on worker 0
            cluster.killWorker(1);            // its loss reaches the scheduler a latency later
            v.release();                      // nothing left to copy: the retirement completes at once
            retired.get(10, TimeUnit.SECONDS);
            cluster.restartWorker(1);
            // its Compute and reply take two latencies: the old loss arrives meanwhile
            ClusterFuture<Integer> onFresh = client.submit(TaskSpec.builder("ch-late-fresh", args -> 8)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            assertThat(onFresh.get(10, TimeUnit.SECONDS)).as("a task only the restarted worker may run").isEqualTo(8);
            assertThat(cluster.stats().workers().get(1).alive()).as("the restarted worker 1 is alive").isTrue();
        }
    }

    private static void check(Node n) throws InterruptedException {
        Object got;
        try {
            got = n.future.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("key " + n.key + " never ended", e);
        } catch (ExecutionException e) {
            assertThat(n.failRoots).as("key " + n.key + " failed with " + e.getCause() + ", expected " + n.value)
                    .isNotEmpty();
            assertThat(e.getCause()).as(n.key).isInstanceOf(IllegalStateException.class);
            String root = e.getCause().getMessage().replace("boom ", "");
            assertThat(n.failRoots).as("the failure of " + n.key).contains(root);
            return;
        }
        assertThat(n.failRoots).as("key " + n.key + " ended with " + got + ", expected a failure").isEmpty();
        assertThat(got).as("value of " + n.key).isEqualTo(n.value);
    }

    /** A task of up to three earlier keys: the sum of their values and its index; some fail once, some for good. */
    private static Node submit(Client client, String key, List<Node> nodes, Random rnd, int workers,
                               boolean forget, boolean strict) {
        int self = nodes.size();
        int deps = nodes.isEmpty() ? 0 : rnd.nextInt(4);
        List<Node> ds = new ArrayList<>();
        for (int i = 0; i < deps; i++) {
            Node d = nodes.get(nodes.size() - 1 - rnd.nextInt(Math.min(nodes.size(), 12)));
            if (!(forget && d.released)) {    // a released key may be forgotten: unknown, not a dependency
                ds.add(d);
            }
        }
        int kind = rnd.nextInt(20);
        boolean flaky = kind == 0;
        boolean fails = kind == 1;
        int sleep = rnd.nextInt(3);
        long value = self;
        Set<String> roots = new HashSet<>();
        for (Node d : ds) {
            value = (value + d.value) % MOD;
            roots.addAll(d.failRoots);
        }
        if (roots.isEmpty() && fails) {
            roots.add(key);
        }
        TaskSpec.Builder<Long> b = TaskSpec.builder(key, args -> {
            int run = RUNS.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
            if (fails || (flaky && run == 1)) {
                throw new IllegalStateException("boom " + key);
            }
            long s = self;
            for (Object a : args) {
                s = (s + (Long) a) % MOD;
            }
            return s;
        });
        List<String> byKey = new ArrayList<>();
        List<ClusterFuture<?>> byFuture = new ArrayList<>();
        for (Node d : ds) {
            if (d.released || rnd.nextBoolean()) {
                byKey.add(d.key);
            } else {
                byFuture.add(d.future);
            }
        }
        // dependencies in order: by key first, then by future, as the argument values are summed
        b.dependsOn(byKey.toArray(new String[0])).dependsOn(byFuture.toArray(new ClusterFuture<?>[0]));
        if (rnd.nextInt(4) == 0) {
            b.restrictions(Restrictions.loose(Set.of(rnd.nextInt(workers))));
        } else if (strict && rnd.nextInt(3) == 0) {
            b.restrictions(Restrictions.strict(Set.of(rnd.nextInt(workers))));
        }
        Node n = new Node(key, value, roots);
        n.future = client.submit(b.build());
        return n;
    }
}
