/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cluster of one worker (id 0) and its coordinator in this JVM, on two free ports: the
 * coordinator on {@code ports[0]}, the worker's seed, and the worker on {@code ports[1]}. Both are
 * registered with the test's {@link Cleanup}, the coordinator last so that it is closed first.
 */
record OneWorkerCluster(int[] ports, PekkoWorker worker, PekkoCoordinator coordinator) {

    /** Starts the worker, then the coordinator (which waits up to a minute for it), with {@code threads} each. */
    static OneWorkerCluster start(Cleanup started, String cluster, int threads) throws Exception {
        int[] ports = FreePorts.free(2);
        PekkoWorker worker = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build(), 0, threads));
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(threads).build(), Duration.ofSeconds(60)));
        return new OneWorkerCluster(ports, worker, coordinator);
    }

    /**
     * Waits until the idle markers of both the coordinator and the worker have run {@code rounds}
     * times from now, counted through the transports' hooks (set back to doing nothing after), or
     * until either side counts the other lost (when its markers stop: the caller's checks say
     * what went wrong), up to a minute. The markers run every {@link Wire#MARK_INTERVAL}: with two
     * rounds, the markers of the first have had an interval to arrive, as with a fixed wait of a
     * few intervals, without sitting out whatever a loaded machine did not need.
     *
     * @throws AssertionError if neither happens within the minute
     */
    void awaitMarkerRounds(int rounds) throws InterruptedException {
        AtomicInteger coordinatorRounds = new AtomicInteger();
        AtomicInteger workerRounds = new AtomicInteger();
        CoordinatorTransport.beforeMarkForTests = coordinatorRounds::incrementAndGet;   // once per worker: one here
        WorkerTransport.beforeMarkForTests = workerRounds::incrementAndGet;
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while ((coordinatorRounds.get() < rounds || workerRounds.get() < rounds)
                    && !coordinator.isLost(0) && !worker.coordinatorLost()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("marker rounds within a minute: the coordinator's " + coordinatorRounds
                            + ", the worker's " + workerRounds + ", of " + rounds);
                }
                Thread.sleep(20);
            }
        } finally {
            CoordinatorTransport.beforeMarkForTests = () -> { };
            WorkerTransport.beforeMarkForTests = () -> { };
        }
    }
}
