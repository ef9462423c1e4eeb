/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Await;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * On a real worker: a task cancelled while it is queued behind a long-running one on a one-thread
 * worker never runs, and the cluster's counts end as if it had never been submitted (nothing
 * processing, nothing held for it, the running counts right after every event); one that a pending
 * task needs still runs. Before, the cancelled task ran once the long one ended, for nobody.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelledQueuedTaskNeverRunsTest {

    private static final AtomicInteger VICTIM_RUNS = new AtomicInteger();
    /** The threads 'slow' and 'victim' ran on: a failure says whether the worker had a second one. */
    private static final AtomicReference<String> SLOW_THREAD = new AtomicReference<>();
    private static final AtomicReference<String> VICTIM_THREAD = new AtomicReference<>();
    private static final AtomicInteger NEEDED_RUNS = new AtomicInteger();

    private static LocalCluster oneThread() {
        return LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO).stealing(false)
                .forgetReleased(true).build();
    }

    @Test
    void aTaskCancelledWhileQueuedBehindALongOneNeverRuns() throws Exception {
        VICTIM_RUNS.set(0);
        VICTIM_THREAD.set(null);
        try (LocalCluster cluster = oneThread()) {
            cluster.checkCountsForTests();
            Client client = cluster.client();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> slow = client.submit("slow", args -> {
                SLOW_THREAD.set(Thread.currentThread().getName());
                started.countDown();
                gate.await(30, SECONDS);
                return 1;
            });
            assertThat(started.await(30, SECONDS)).isTrue();
            ClusterFuture<Integer> victim = client.submit("victim", args -> {
                VICTIM_THREAD.set(Thread.currentThread().getName());
                return VICTIM_RUNS.incrementAndGet();
            });
            Await.until("'victim' queued on the worker", () -> cluster.stats().workers().get(0).processing() == 2
                    && cluster.retainedForTests().get("w0.ready") == 1);

            assertThat(victim.cancel(false)).isTrue();
            Await.until("'victim' given up by its worker", Duration.ofSeconds(10),
                    () -> cluster.stats().workers().get(0).processing() == 1);
            gate.countDown();
            assertThat(slow.get(30, SECONDS)).isEqualTo(1);

            assertThatThrownBy(victim::get).isInstanceOf(CancellationException.class);
            assertThat(VICTIM_RUNS).as("'victim' never ran (it ran on %s; 'slow' on %s)", VICTIM_THREAD.get(),
                    SLOW_THREAD.get()).hasValue(0);
            ClusterStats stats = cluster.stats();
            assertThat(stats.workers().get(0).processing()).isZero();
            assertThat(stats.workers().get(0).executed()).as("'slow' alone ran").isEqualTo(1);
            assertThat(stats.tasksExecuted()).isEqualTo(1);
            assertThat(stats.tasksInMemory()).as("'slow', still held").isEqualTo(1);
            assertThat(stats.workers().get(0).keysHeld()).isEqualTo(1);
            assertThat(stats.tasksErred()).isZero();
            assertThat(stats.tasksCancelled()).as("'victim', forgotten unstarted").isEqualTo(1);
            assertThat(stats.tasksReleased()).as("no result freed").isZero();
            assertThat(cluster.taskRecords()).as("'victim' forgotten").isEqualTo(1);
            assertThat(cluster.retainedForTests()).containsEntry("inFlight", 0).containsEntry("w0.jobs", 0)
                    .containsEntry("w0.ready", 0);
            cluster.checkCountsForTests();
            // 'slow' counts as held above: a future collected after its last use (a compiled frame
            // drops it after slow.get) is released by the cleaner, and with forgetReleased forgotten
            Reference.reachabilityFence(slow);
        }
    }

    @Test
    void aTaskCancelledWhileQueuedThatAPendingTaskNeedsStillRuns() throws Exception {
        NEEDED_RUNS.set(0);
        try (LocalCluster cluster = oneThread()) {
            cluster.checkCountsForTests();
            Client client = cluster.client();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> slow = client.submit("slow", args -> {
                started.countDown();
                gate.await(30, SECONDS);
                return 1;
            });
            assertThat(started.await(30, SECONDS)).isTrue();
            ClusterFuture<Integer> needed = client.submit("needed", args -> NEEDED_RUNS.incrementAndGet() * 10);
            ClusterFuture<Integer> user = client.submit("user", args -> (Integer) args.get(0) + 1, needed);
            Await.until("'needed' queued on the worker", () -> cluster.stats().workers().get(0).processing() == 2);

            assertThat(needed.cancel(false)).isTrue();
            gate.countDown();
            assertThat(slow.get(30, SECONDS)).isEqualTo(1);
            assertThat(user.get(30, SECONDS)).as("'user' gets what 'needed' computed").isEqualTo(11);
            assertThat(NEEDED_RUNS).hasValue(1);
            assertThat(cluster.stats().tasksCancelled()).as("'needed' ran").isZero();
            cluster.checkCountsForTests();
        }
    }
}
