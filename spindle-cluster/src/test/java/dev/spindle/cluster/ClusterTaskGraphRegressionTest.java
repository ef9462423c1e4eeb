/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClusterTaskGraphRegressionTest {

    /**
     * A task that submits a nested task under a fixed key, then fails, is retried: the retry
     * submits the same key again, which the first attempt already took.
     */
    @Test
    void retriedTaskCanSubmitItsNestedKeysAgain() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).retries(2).build()) {
            Client client = cluster.client();
            AtomicInteger attempts = new AtomicInteger();
            ClusterFuture<Integer> outer = client.submit("outer", args -> {
                int attempt = attempts.incrementAndGet();
                ClusterFuture<Integer> inner = client.submit("outer-inner", a -> 21);
                int v = inner.get(30, SECONDS);
                if (attempt == 1) {
                    throw new IOException("first attempt fails after its nested task");
                }
                return v * 2;
            });
            assertThat(outer.get(30, SECONDS)).isEqualTo(42);
            assertThat(attempts.get()).isEqualTo(2);
        }
    }

    /**
     * The first attempt's nested future, left pending when that attempt failed without waiting,
     * still completes (as the retry's resubmission does), and once every future is released the
     * workers hold nothing: the replaced record neither leaks its value nor releases the new one.
     */
    @Test
    void replacedNestedSubmissionCompletesItsEarlierFutureAndFreesMemory() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).retries(1).build()) {
            Client client = cluster.client();
            AtomicInteger attempts = new AtomicInteger();
            CompletableFuture<ClusterFuture<Integer>> firstInner = new CompletableFuture<>();
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            ClusterFuture<Integer> outer = client.submit("outer", args -> {
                int attempt = attempts.incrementAndGet();
                ClusterFuture<Integer> inner = client.submit("outer-inner", a -> {
                    gate.await(30, SECONDS);
                    return 7;
                });
                if (attempt == 1) {
                    firstInner.complete(inner);
                    throw new IOException("fails before waiting for its nested task");
                }
                gate.countDown();
                int v = inner.get(30, SECONDS);
                inner.release();              // else only the cleaner, after a GC, would release it
                return v + 1;
            });
            assertThat(outer.get(30, SECONDS)).isEqualTo(8);
            ClusterFuture<Integer> earlier = firstInner.get(30, SECONDS);
            assertThat(earlier.get(30, SECONDS)).isEqualTo(7);
            earlier.release();
            outer.release();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (cluster.stats().workers().stream().mapToInt(ClusterStats.WorkerStats::keysHeld).sum() != 0) {
                    Thread.sleep(10);
                }
            });
        }
    }

    /** A submission from the client (not a retry) of a key taken still throws, as documented. */
    @Test
    void clientResubmissionStillThrows() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).build()) {
            Client client = cluster.client();
            assertThat(client.submit("k", args -> 1).get(30, SECONDS)).isEqualTo(1);
            assertThatThrownBy(() -> client.submit("k", args -> 2))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already submitted");
        }
    }

    /** A copy reported after its key was released is dropped again, and counted nowhere. */
    @Test
    void dataAddedAfterReleaseIsDroppedNotResurrected() {
        RecordingTransport transport = new RecordingTransport();
        try (GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), transport)) {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            HandDriven.reply(s, new Message.TaskFinished(0, "a", transport.lastCompute("a").attempt(), 1, 4, 1000));
            s.submit(List.of(TaskSpec.builder("b", args -> 2).dependsOn("a")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            HandDriven.reply(s, new Message.TaskFinished(1, "b", transport.lastCompute("b").attempt(), 2, 4, 1000));
            s.releaseFuture("a");
            s.releaseFuture("b");
            s.stealEvents();                  // a call queued behind the releases: a barrier
            int before = releasesTo(transport, 1, "a");
            HandDriven.reply(s, new Message.DataAdded(1, "a", 4));   // worker 1's fetch of a, reported late
            assertThat(releasesTo(transport, 1, "a")).isEqualTo(before + 1);
            ClusterStats stats = s.stats();
            assertThat(stats.tasksInMemory()).isZero();
            assertThat(stats.workers()).allSatisfy(w -> assertThat(w.keysHeld()).isZero());
        }
    }

    private static int releasesTo(RecordingTransport t, int worker, String key) {
        int n = 0;
        for (RecordingTransport.Sent sent : t.sentToWorkers()) {
            if (sent.worker() == worker && sent.message() instanceof Message.ReleaseKey r && r.key().equals(key)) {
                n++;
            }
        }
        return n;
    }

    /**
     * A transport that, in its callback for the first task sent to a worker (on the scheduler's
     * thread), calls {@code action} on the coordinator and completes {@code outcome} with what it
     * threw, or null.
     */
    private static RecordingTransport callingOnFirstCompute(AtomicReference<ClusterCoordinator> coordinator,
            java.util.function.Consumer<ClusterCoordinator> action, CompletableFuture<Throwable> outcome) {
        return new RecordingTransport() {
            @Override
            public synchronized void toWorker(int worker, Message.ToWorker message) {
                super.toWorker(worker, message);
                if (message instanceof Message.Compute && !outcome.isDone()) {
                    try {
                        action.accept(coordinator.get());
                        outcome.complete(null);
                    } catch (Throwable t) {
                        outcome.complete(t);
                    }
                }
            }
        };
    }

    /**
     * A transport's callback runs on the scheduler thread; a stats() call there waited for an event
     * that thread would only run after the callback returned, so it never returned.
     */
    @Test
    void statsFromTheSchedulerThreadDoesNotHang() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            AtomicReference<ClusterCoordinator> coordinator = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            RecordingTransport transport = callingOnFirstCompute(coordinator, ClusterCoordinator::stats, outcome);
            try (ClusterCoordinator c = ClusterCoordinator.start(
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), transport)) {
                coordinator.set(c);
                c.client().submit("t", args -> 1);
                Throwable t = outcome.get(30, SECONDS);
                assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("scheduler thread");
                // the scheduler goes on: a call from another thread still answers
                assertThat(c.stats().workers()).hasSize(1);
            }
        });
    }

    /**
     * close() from a transport callback, on the scheduler's thread, waited for an event that only
     * that thread could run: the close never returned and the scheduler stopped for good.
     */
    @Test
    void closeFromTheSchedulerThreadReturnsAndCloses() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            AtomicReference<ClusterCoordinator> coordinator = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            RecordingTransport transport = callingOnFirstCompute(coordinator, ClusterCoordinator::close, outcome);
            ClusterCoordinator c = ClusterCoordinator.start(
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), transport);
            coordinator.set(c);
            ClusterFuture<Integer> f = c.client().submit("t", args -> 1);
            assertThat(outcome.get(30, SECONDS)).as("what close() threw in the callback").isNull();
            // the close ran after the callback's event: the task's future fails, and the cluster
            // refuses new work
            assertThatThrownBy(() -> f.get(30, SECONDS)).isInstanceOf(java.util.concurrent.ExecutionException.class)
                    .hasMessageContaining("closed");
            assertThatThrownBy(c::stats).isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
            c.close();                    // and a second close from outside returns
        });
    }

    @Test
    void statsAfterCloseFailsAtOnce() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            ClusterCoordinator c = ClusterCoordinator.start(
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), new RecordingTransport());
            c.close();
            assertThatThrownBy(c::stats).isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        });
    }
}
