/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a cluster leaves behind once closed: no caller waiting for good, no thread, no value. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterCloseRegressionTest {

    /**
     * A transport whose first flush waits for a latch: the scheduler thread is held there, so that
     * calls queue up behind it in a known order.
     */
    private static final class HeldFlush extends RecordingTransport {
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void flush() {
            if (held.getCount() > 0) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static void awaitWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertThat(t.isAlive()).as(t.getName() + " alive").isTrue();
            Thread.sleep(1);
        }
    }

    @Test
    void twoClosesAtOnceBothReturn() throws Exception {
        HeldFlush transport = new HeldFlush();
        ClusterCoordinator coordinator = ClusterCoordinator.start(HandDriven.settings(1).build(), transport);
        ClusterFuture<Object> pending = coordinator.client().submit("ct1pending", args -> 1);  // its flush holds
        assertThat(transport.held.await(10, TimeUnit.SECONDS)).as("scheduler held in flush").isTrue();

        Thread first = new Thread(coordinator::close, "close-1");
        Thread second = new Thread(coordinator::close, "close-2");
        first.setDaemon(true);            // before the fix the second waited for good
        second.setDaemon(true);
        first.start();
        awaitWaiting(first);
        second.start();
        awaitWaiting(second);                 // both closes are queued behind the held flush
        transport.release.countDown();

        first.join(10_000);
        second.join(10_000);
        assertThat(first.isAlive()).as("the first close returned").isFalse();
        assertThat(second.isAlive()).as("the second close returned").isFalse();
        assertThatThrownBy(() -> pending.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("ct1pending");
    }

    @Test
    void aWaitForAWorkerToBeGoneEndsWhenTheCoordinatorCloses() throws Exception {
        ClusterCoordinator coordinator = ClusterCoordinator.start(HandDriven.settings(2).build(),
                new RecordingTransport());
        CompletableFuture<Void> gone = coordinator.gone(1);
        coordinator.close();
        assertThatThrownBy(() -> gone.get(10, TimeUnit.SECONDS)).as("the wait for worker 1 after the close")
                .isInstanceOf(java.util.concurrent.ExecutionException.class).cause()
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("worker 1");
    }

    /** The threads a cluster of this JVM starts and owns (the running-reports timer is shared by all). */
    private static Set<Thread> clusterThreads() {
        Set<Thread> out = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (n.startsWith("cluster-scheduler") || n.startsWith("cluster-notifier")
                    || n.startsWith("cluster-transport") || n.startsWith("cluster-worker-")) {
                out.add(t);
            }
        }
        return out;
    }

    @Test
    void closingWhileGraphsRunAfterChurnFailsEveryPendingFutureAndStopsEveryThread() throws Exception {
        Set<Thread> before = clusterThreads();
        CountDownLatch never = new CountDownLatch(1);
        List<ClusterFuture<Object>> pending = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(2).latency(Duration.ZERO)
                .bandwidth(1e12).balanceInterval(Duration.ofMillis(5)).build()) {
            Client client = cluster.client();
            ClusterFuture<Integer> x = client.scatter("ct2x", 1, 0);
            assertThat(client.submit("ct2inc", args -> (Integer) args.get(0) + 1, x).get(10, TimeUnit.SECONDS))
                    .isEqualTo(2);
            cluster.killWorker(1);
            int added = cluster.addWorker();
            cluster.retire(2).get(10, TimeUnit.SECONDS);
            cluster.restartWorker(1);
            for (int i = 0; i < 20; i++) {
                pending.add(client.submit("ct2block-" + i, args -> {
                    never.await();
                    return 0;
                }, x));
            }
            assertThat(added).isEqualTo(3);
        }
        for (ClusterFuture<Object> f : pending) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(f.key());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Set<Thread> left = clusterThreads();
        left.removeAll(before);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
            left = clusterThreads();
            left.removeAll(before);
        }
        assertThat(left).as("threads left running by the closed cluster").isEmpty();
    }

    @Test
    void aClosedClusterStillReferencedKeepsNoScatteredValue() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(2).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        WeakReference<byte[]> big = scatterBig(client);
        ClusterFuture<Integer> small = client.submit("ct3small", args -> 3);
        assertThat(small.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        cluster.close();
        // the caller still holds the closed cluster, its client and a small future of it
        assertThat(Gc.collected(big)).as("the scattered value of a closed cluster is collectable").isTrue();
        assertThat(small.get()).isEqualTo(3);
        assertThatThrownBy(() -> client.submit("ct3late", args -> 1)).isInstanceOf(RejectedExecutionException.class);
        assertThat(cluster.workers()).isEqualTo(2);
    }

    @Test
    void aClosedClusterStillReferencedKeepsNoValueOfATaskQueuedOnAWorker() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(2).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        client.submit(TaskSpec.builder("ct4busy", args -> {
            started.countDown();
            // interrupted by the close. A wait with a time limit: an untimed one, with a task queued
            // behind it, is one the pool's starvation watch starts a spare worker for, which ran the
            // queued task within a look or two (20 ms each); a loaded machine's polls below then
            // missed the two tasks processing together and waited for good
            never.await(1, TimeUnit.HOURS);
            return 0;
        }).restrictions(Restrictions.strict(Set.of(0))).build());
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        // queued behind the busy task on worker 0's only thread: it never runs
        WeakReference<byte[]> big = queueBig(client);
        ClusterStats stats = cluster.stats();
        while (stats.workers().get(0).processing() < 2) {
            Thread.sleep(1);
            stats = cluster.stats();
        }
        cluster.close();
        assertThat(Gc.collected(big)).as("the value of a task that never ran on a closed cluster is collectable")
                .isTrue();
        assertThat(cluster.workers()).isEqualTo(2);
    }

    private static WeakReference<byte[]> queueBig(Client client) {
        byte[] value = new byte[8 << 20];
        client.submit(TaskSpec.builder("ct4big", args -> value.length).restrictions(Restrictions.strict(Set.of(0)))
                .build());
        return new WeakReference<>(value);
    }

    private static WeakReference<byte[]> scatterBig(Client client) throws Exception {
        byte[] value = new byte[8 << 20];
        ClusterFuture<byte[]> f = client.scatter("ct3big", value, 0);
        assertThat(f.get(10, TimeUnit.SECONDS)).hasSize(8 << 20);
        f.release();
        return new WeakReference<>(value);
    }
}
