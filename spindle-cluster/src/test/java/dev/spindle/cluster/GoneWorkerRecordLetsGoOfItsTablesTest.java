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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler keeps the record of a gone worker (lost or retired) while its id is not reused, and
 * a hash table never shrinks: the sets of the tasks it processed and the keys it held, sized by its
 * busiest moment, stayed that size for good once emptied, one pair per gone id (a cluster whose
 * workers come and go under new ids keeps up to {@link ClusterCoordinator#MAX_WORKERS}). Once gone,
 * its record must let go of them: weak references to the very sets, taken while the worker was busy
 * (through the package-private {@code workerCollectionsForTests}), are cleared by a collection
 * once the worker is gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GoneWorkerRecordLetsGoOfItsTablesTest {

    private static final int TASKS = 2_000;

    /** Worker {@code id} busy with {@code TASKS} queued tasks, then holding their values; weak references to its sets. */
    private static List<WeakReference<Object>> busy(LocalCluster cluster, int id, String prefix) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        List<ClusterFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            int v = i;
            fs.add(cluster.client().submit(TaskSpec.builder(prefix + "-" + i, (TaskFunction<Integer>) args -> {
                gate.await(30, TimeUnit.SECONDS);
                return v;
            }).restrictions(Restrictions.strict(Set.of(id))).build()));
        }
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (Object c : cluster.workerCollectionsForTests(id)) {
            refs.add(new WeakReference<>(c));
        }
        assertThat(((java.util.Collection<?>) cluster.workerCollectionsForTests(id).get(0))).hasSize(TASKS);
        gate.countDown();
        for (int i = 0; i < TASKS; i++) {
            assertThat(fs.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
        }
        assertThat(((java.util.Collection<?>) cluster.workerCollectionsForTests(id).get(1))).hasSize(TASKS);
        fs.forEach(ClusterFuture::release);
        return refs;
    }

    /** Collects until every reference is cleared, or gives up after 50 tries. */
    private static boolean cleared(List<WeakReference<Object>> refs) throws InterruptedException {
        for (int i = 0; i < 50; i++) {
            if (refs.stream().allMatch(r -> r.get() == null)) {
                return true;
            }
            System.gc();
            Thread.sleep(20);
        }
        return refs.stream().allMatch(r -> r.get() == null);
    }

    @Test
    void aLostWorkersRecordLetsGoOfItsSets() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).latency(Duration.ZERO)
                .forgetReleased(true).build()) {
            List<WeakReference<Object>> refs = busy(cluster, 1, "lost");
            cluster.killWorker(1);
            assertThat(cleared(refs)).as("the lost worker's sets of tasks and keys let go").isTrue();
        }
    }

    @Test
    void aRetiredWorkersRecordLetsGoOfItsSets() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).latency(Duration.ZERO)
                .forgetReleased(true).build()) {
            List<WeakReference<Object>> refs = busy(cluster, 1, "retired");
            cluster.retire(1).get(30, TimeUnit.SECONDS);
            assertThat(cleared(refs)).as("the retired worker's sets of tasks and keys let go").isTrue();
        }
    }
}
