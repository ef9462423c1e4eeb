/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A LocalCluster keeps every gone worker (its id stays an index), and a hash table never shrinks:
 * the worker's table of releases it remembers (up to {@link ClusterWorker#MAX_OVERTAKEN} keys, a
 * table of 8,192 slots), of steal requests, of releases handled out of order, its store's table
 * of values, and its tables of jobs and of queued jobs, each the size of its fullest moment, stayed so for good once emptied, one set per gone
 * worker. Weak references to the very tables, taken while the worker was busy (through the
 * package-private {@code tablesForTests}), must be cleared by a collection once it is gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoppedWorkerLetsGoOfItsTablesTest {

    @Test
    void aKilledWorkerLetsGoOfItsTables() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).latency(Duration.ZERO)
                .forgetReleased(true).build()) {
            List<ClusterFuture<Integer>> fs = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                int v = i;
                fs.add(cluster.client().submit(TaskSpec.builder("t-" + i, (TaskFunction<Integer>) args -> v)
                        .restrictions(Restrictions.strict(Set.of(1))).build()));
            }
            for (int i = 0; i < fs.size(); i++) {
                assertThat(fs.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
            }
            assertThat(cluster.workerRetainedForTests(1).get("stored")).isEqualTo(3_000);
            List<WeakReference<Object>> refs = new ArrayList<>();
            for (Object t : cluster.workerTablesForTests(1)) {
                refs.add(new WeakReference<>(t));
            }
            fs.forEach(ClusterFuture::release);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (cluster.workerRetainedForTests(1).get("overtaken") < 3_000 && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertThat(cluster.workerRetainedForTests(1).get("overtaken")).as("releases remembered").isEqualTo(3_000);
            cluster.killWorker(1);
            boolean cleared = false;
            for (int i = 0; i < 50 && !cleared; i++) {
                System.gc();
                Thread.sleep(20);
                cleared = refs.stream().allMatch(r -> r.get() == null);
            }
            assertThat(cleared).as("the killed worker's tables let go").isTrue();
        }
    }
}
