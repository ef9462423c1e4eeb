/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.PoolThreads;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker that leaves the cluster on its own (its coordinator left, or it was retired) has ended
 * for good: its member is down and nothing can reach its pool any more. Its pool threads and held
 * values must go with it, not linger until someone calls {@link PekkoWorker#close()} on an object
 * that {@link PekkoWorker#terminated()} already reported as ended.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WorkerLeaveRegressionTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aWorkerWhoseCoordinatorLeftStopsItsPoolThreads() throws Exception {
        PoolThreads pool = PoolThreads.since("cluster-worker-0");
        OneWorkerCluster c = OneWorkerCluster.start(started, "departed", 3);
        PekkoWorker worker = c.worker();
        PekkoCoordinator coordinator = c.coordinator();
        assertThat(coordinator.client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(pool.started()).as("the worker's pool threads while it serves").isNotEmpty();

        coordinator.close();
        worker.terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(pool.lingeringAfter(Duration.ofSeconds(30)))
                .as("pool threads of a worker that left the cluster (terminated() completed, close() not called)")
                .isEmpty();
    }
}
