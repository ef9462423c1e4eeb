/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;

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
}
