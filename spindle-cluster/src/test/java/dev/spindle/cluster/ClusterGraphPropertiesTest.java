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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random graphs on a real cluster with periodic stealing: every result is right, and without
 * failures every task runs exactly once; with a worker killed midway results are still right.
 */
class ClusterGraphPropertiesTest {

    static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final AtomicInteger GRAPH = new AtomicInteger();

    /** Each task i depends on up to three earlier tasks, given as offsets back. */
    @Provide
    Arbitrary<List<int[]>> graphs() {
        return Arbitraries.integers().between(1, 1000).array(int[].class).ofMaxSize(3).list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 25)
    void resultsAreRightAndTasksRunOnce(@ForAll("graphs") List<int[]> shape) throws Exception {
        run(shape, false);
    }

    @Property(tries = 15)
    void resultsSurviveALostWorker(@ForAll("graphs") List<int[]> shape) throws Exception {
        run(shape, true);
    }

    private static void run(List<int[]> shape, boolean kill) throws Exception {
        String tag = "g" + GRAPH.incrementAndGet() + "n";
        long[] expected = new long[shape.size()];
        Graph.Builder g = Graph.builder();
        for (int i = 0; i < shape.size(); i++) {
            List<String> deps = new ArrayList<>();
            long sum = i;
            for (int back : shape.get(i)) {
                if (i > 0) {
                    int d = i - 1 - (back % i);
                    deps.add(tag + "-" + d);
                    sum += expected[d];
                }
            }
            expected[i] = sum % 1_000_003;
            String key = tag + "-" + i;
            long self = i;
            g.task(TaskSpec.builder(key, args -> {
                RUNS.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                Thread.sleep(1);      // long enough for steals and the kill to land mid-graph
                long s = self;
                for (Object a : args) {
                    s += (Long) a;
                }
                return s % 1_000_003;
            }).dependsOn(deps.toArray(new String[0]))
                    .restrictions(i % 2 == 0 ? Restrictions.loose(Set.of(0)) : Restrictions.none())
                    .durationHint(Duration.ofMillis(5)).build());
        }
        try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).balanceInterval(Duration.ofMillis(1)).saturatedOccupancy(Duration.ZERO).build()) {
            cluster.checkCountsForTests();    // and after every event from here on (the scheduler's running counts)
            Map<String, ClusterFuture<?>> fs = cluster.client().submit(g.build());
            cluster.rebalance();
            if (kill) {
                cluster.killWorker(1);
            }
            for (int i = 0; i < shape.size(); i++) {
                String key = tag + "-" + i;
                assertThat(fs.get(key).get()).as(key).isEqualTo(expected[i]);
                if (!kill) {
                    assertThat(RUNS.get(key).get()).as("runs of " + key).isEqualTo(1);
                }
            }
            cluster.checkCountsForTests();
        }
    }
}
