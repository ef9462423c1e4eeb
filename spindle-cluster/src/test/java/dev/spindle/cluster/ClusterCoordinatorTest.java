/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The public SPI: a coordinator and worker nodes joined by a transport written outside the package's internals. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterCoordinatorTest {

    /** Delivers everything on one thread, as a remote transport's receiving side would. */
    private static final class DirectTransport implements Transport {
        final ExecutorService wire = Executors.newSingleThreadExecutor();
        final List<WorkerNode> nodes = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Set<Integer> lost = ConcurrentHashMap.newKeySet();
        final java.util.concurrent.atomic.AtomicLong fetches = new java.util.concurrent.atomic.AtomicLong();
        volatile ClusterCoordinator coordinator;
        /** When set, the scheduler's messages are held until it calls {@link #flush}, as a batching transport holds them. */
        volatile OutboundBatches batches;

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            if (batches != null) {
                batches.add(worker, message);
                return;
            }
            deliver(() -> {
                if (!lost.contains(worker)) {
                    nodes.get(worker).receive(message);
                }
            });
        }

        @Override
        public void flush() {
            if (batches != null) {
                batches.flush();
            }
        }

        /** Holds the scheduler's messages until it flushes, then delivers each batch in order. */
        void holdUntilFlushed() {
            batches = new OutboundBatches(8, 1 << 20, (worker, bodies) -> deliver(() -> {
                if (!lost.contains(worker)) {
                    bodies.forEach(m -> nodes.get(worker).receive((Message.ToWorker) m));
                }
            }));
        }

        /** After close, dropping is the contract; workers still finishing must not see an error. */
        private void deliver(Runnable r) {
            try {
                wire.execute(r);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // the test is over
            }
        }

        @Override
        public void toScheduler(Message.ToScheduler message) {
            deliver(() -> {
                if (!lost.contains(message.worker()) || message instanceof Message.WorkerLost) {
                    coordinator.receive(message);
                }
            });
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            Object value = lost.contains(holder) ? null : nodes.get(holder).value(key);
            if (value == null) {
                return CompletableFuture.failedFuture(new IllegalStateException(holder + " lacks " + key));
            }
            fetches.incrementAndGet();
            return CompletableFuture.completedFuture(value);
        }

        @Override
        public void workerLost(int worker) {
            if (lost.add(worker)) {
                nodes.get(worker).close();
                toScheduler(new Message.WorkerLost(worker));
            }
        }

        @Override
        public void retired(int worker) {
            if (lost.add(worker)) {
                nodes.get(worker).close();
            }
        }

        /** Counts values moved rather than bytes: nothing is serialised in this transport. */
        @Override
        public long bytesTransferred() {
            return fetches.get();
        }

        @Override
        public void close() {
            wire.shutdownNow();
        }
    }

    private final DirectTransport transport = new DirectTransport();

    @AfterEach
    void close() {
        if (transport.coordinator != null) {
            transport.coordinator.close();
        }
        transport.nodes.stream().filter(java.util.Objects::nonNull).forEach(WorkerNode::close);
        transport.close();
    }

    private Client start(int workers) {
        return start(CoordinatorSettings.builder().workers(workers).threadsPerWorker(2).build());
    }

    private Client start(CoordinatorSettings settings) {
        int workers = settings.workers();
        for (int i = 0; i < workers; i++) {
            transport.nodes.add(new WorkerNode(i, 2, transport));
        }
        transport.coordinator = ClusterCoordinator.start(settings, transport);
        assertThat(transport.coordinator.workers()).isEqualTo(workers);
        return transport.coordinator.client();
    }

    @Test
    void aGraphRunsOverACustomTransportAndSurvivesALostWorker() throws Exception {
        Client client = start(3);
        List<ClusterFuture<Integer>> leaves = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int v = i;
            leaves.add(client.submit("leaf-" + i, args -> {
                Thread.sleep(5);
                return v;
            }));
        }
        ClusterFuture<Integer> total = client.submit("total", args -> {
            int s = 0;
            for (Object o : args) {
                s += (Integer) o;
            }
            return s;
        }, leaves.toArray(new ClusterFuture<?>[0]));
        leaves.get(0).get(30, TimeUnit.SECONDS);
        transport.workerLost(1);
        assertThat(total.get(30, TimeUnit.SECONDS)).isEqualTo(60 * 59 / 2);
        assertThat(transport.bytesTransferred()).as("values fetched from other workers").isPositive();
    }

    /**
     * A transport that holds the scheduler's messages until {@link Transport#flush} (to send them
     * as batches) still runs a graph to the end, without the periodic balance round (the
     * scheduler then blocks for its next event) and with it: the scheduler flushes whenever its
     * events run dry. Before the scheduler flushed, nothing was ever sent.
     */
    @Test
    void aTransportThatHoldsMessagesUntilFlushedRunsAGraph() throws Exception {
        transport.holdUntilFlushed();
        Client client = start(CoordinatorSettings.builder().workers(3).threadsPerWorker(2).stealing(false).build());
        List<ClusterFuture<Integer>> leaves = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int v = i;
            leaves.add(client.submit("held-" + i, args -> v));
        }
        ClusterFuture<Integer> total = client.submit("held-total", args -> {
            int s = 0;
            for (Object o : args) {
                s += (Integer) o;
            }
            return s;
        }, leaves.toArray(new ClusterFuture<?>[0]));
        assertThat(total.get(30, TimeUnit.SECONDS)).isEqualTo(100 * 99 / 2);
        assertThat(transport.batches.pending(0) + transport.batches.pending(1) + transport.batches.pending(2)).isZero();
    }

    @Test
    void aTransportThatHoldsMessagesUntilFlushedRunsAGraphWithStealing() throws Exception {
        transport.holdUntilFlushed();
        Client client = start(3);
        List<ClusterFuture<Integer>> parts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int v = i;
            parts.add(client.submit("held-s-" + i, args -> v * 2));
        }
        for (int i = 0; i < 100; i++) {
            assertThat(parts.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i * 2);
        }
    }

    /**
     * The coordinator gives the counters and the steal log as LocalCluster does; a worker joins
     * late and takes queued work by stealing; retiring the first worker copies its results, so
     * a task submitted afterwards needs no recomputation: every task runs once.
     */
    @Test
    void aWorkerJoinsLateStealsAndTheFirstRetiresWithoutLosingAResult() throws Exception {
        Client client = start(1);
        Map<String, java.util.concurrent.atomic.AtomicInteger> runs = new ConcurrentHashMap<>();
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        List<ClusterFuture<Integer>> parts = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int v = i;
            String key = "part-" + i;
            parts.add(client.submit(TaskSpec.builder(key, (TaskFunction<Integer>) args -> {
                runs.computeIfAbsent(key, k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
                if (!gate.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("gate never opened");
                }
                return v;
            }).durationHint(java.time.Duration.ofSeconds(1)).build()));
        }
        awaitUntil(() -> runs.size() == 2);   // worker 0's two threads are busy, four tasks queued

        transport.nodes.add(new WorkerNode(1, 2, transport));
        transport.coordinator.join(1, 2);
        transport.coordinator.rebalance();     // or the round the join brought forward
        awaitUntil(() -> transport.coordinator.stats().stealsConfirmed() > 0);
        assertThat(transport.coordinator.stealEvents()).anySatisfy(e -> assertThat(e.thief()).isEqualTo(1));
        gate.countDown();
        assertThat(client.gather(parts)).containsExactly(0, 1, 2, 3, 4, 5);

        transport.coordinator.retire(0).get(30, TimeUnit.SECONDS);
        ClusterStats stats = transport.coordinator.stats();
        assertThat(stats.workers()).extracting(ClusterStats.WorkerStats::alive).containsExactly(false, true);
        assertThat(stats.workers().get(1).keysHeld()).as("every part on the remaining worker").isEqualTo(6);
        assertThat(stats.workers().get(0).executed() + stats.workers().get(1).executed()).isEqualTo(6);
        assertThat(stats.workers().get(1).executed()).isPositive();
        long fetched = transport.fetches.get();
        ClusterFuture<Integer> sum = client.submit("sum", args -> {
            runs.computeIfAbsent("sum", k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
            return args.stream().mapToInt(a -> (Integer) a).sum();
        }, parts.toArray(new ClusterFuture<?>[0]));
        assertThat(sum.get(30, TimeUnit.SECONDS)).isEqualTo(15);
        assertThat(runs).hasSize(7);
        assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(transport.fetches.get()).as("the sum found every part on its worker").isEqualTo(fetched);

        transport.nodes.add(null);            // id 2 is skipped: recorded as gone
        transport.nodes.add(new WorkerNode(3, 1, transport));
        transport.coordinator.join(3, 1);
        assertThat(transport.coordinator.stats().workers()).extracting(ClusterStats.WorkerStats::alive)
                .containsExactly(false, true, false, true);
        assertThatThrownBy(() -> transport.coordinator.join(1, 2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("still alive");
        assertThatThrownBy(() -> transport.coordinator.join(-1, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> transport.coordinator.join(1 << 20, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("worker id");
        assertThatThrownBy(() -> transport.coordinator.retire(9)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met within 30 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> ClusterCoordinator.start(null, transport))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("settings");
        assertThatThrownBy(() -> ClusterCoordinator.start(CoordinatorSettings.builder().build(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("transport");
        assertThatThrownBy(() -> new WorkerNode(-1, 1, transport)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WorkerNode(0, 0, transport)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WorkerNode(0, 1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aClosedCoordinatorFailsUnfinishedFuturesAndRefusesWork() {
        Client client = start(1);
        ClusterFuture<Integer> slow = client.submit("slow", args -> {
            Thread.sleep(10_000);
            return 1;
        });
        transport.coordinator.close();
        assertThat(slow.toCompletableFuture()).failsWithin(java.time.Duration.ofSeconds(10))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> client.submit("late", args -> 2))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }
}
