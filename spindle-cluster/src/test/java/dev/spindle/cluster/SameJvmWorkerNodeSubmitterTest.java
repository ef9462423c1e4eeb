/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link WorkerNode} in the coordinator's own JVM, joined to it by one {@link Transport} object
 * that both use, runs tasks that may submit to the coordinator's client and wait for what they
 * submitted, as a {@link LocalCluster} worker's do. But the node's worker did not know its
 * scheduler (only {@link LocalCluster} tells its workers), so such a task was no submitter of
 * what it submitted, and no helper of what it waited for: its retry, running the same function,
 * submitted the same key again and was refused ("already submitted"), failing a task that a
 * {@link LocalCluster} worker retries. Now a worker whose scheduler was not set takes for its own
 * the scheduler that reaches it through the very transport it reports through.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SameJvmWorkerNodeSubmitterTest {

    /** Delivers everything, in order, on one thread; nothing is serialised. */
    private static final class DirectTransport implements Transport {
        final ExecutorService wire = Executors.newSingleThreadExecutor();
        final List<WorkerNode> nodes = new CopyOnWriteArrayList<>();
        volatile ClusterCoordinator coordinator;

        private void deliver(Runnable r) {
            try {
                wire.execute(r);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // the test is over
            }
        }

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            deliver(() -> nodes.get(worker).receive(message));
        }

        @Override
        public void toScheduler(Message.ToScheduler message) {
            deliver(() -> coordinator.receive(message));
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            Object absent = new Object();
            Object value = nodes.get(holder).valueOrDefault(key, absent);
            return value == absent
                    ? CompletableFuture.failedFuture(new IllegalStateException(holder + " lacks " + key))
                    : CompletableFuture.completedFuture(value);
        }

        @Override
        public void workerLost(int worker) {
            nodes.get(worker).close();
            toScheduler(new Message.WorkerLost(worker));
        }

        @Override
        public long bytesTransferred() {
            return 0;
        }

        @Override
        public void close() {
            wire.shutdownNow();
        }
    }

    @Test
    void aRetriedTaskOnASameJvmWorkerNodeSubmitsItsKeysAgain() throws Exception {
        DirectTransport transport = new DirectTransport();
        transport.nodes.add(new WorkerNode(0, 2, transport));
        transport.coordinator = ClusterCoordinator.start(
                CoordinatorSettings.builder().workers(1).threadsPerWorker(2).retries(1).build(), transport);
        Client client = transport.coordinator.client();
        AtomicInteger runs = new AtomicInteger();
        try {
            ClusterFuture<Integer> parent = client.submit("parent", args -> {
                int run = runs.incrementAndGet();
                int child = client.<Integer>submit("child", a -> 7).get(20, TimeUnit.SECONDS);
                if (run == 1) {
                    throw new IllegalStateException("the first run fails after submitting 'child'");
                }
                return child;
            });

            assertThat(parent.get(30, TimeUnit.SECONDS)).as("the retry submits 'child' again and gets it").isEqualTo(7);
            assertThat(runs.get()).isEqualTo(2);
        } finally {
            transport.coordinator.close();
            transport.nodes.forEach(WorkerNode::close);
            transport.close();
        }
    }
}
