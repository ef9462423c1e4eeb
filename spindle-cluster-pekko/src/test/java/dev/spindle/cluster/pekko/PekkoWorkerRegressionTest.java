/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.Cleanup;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker whose coordinator closes. A worker follows one coordinator for its whole life (a
 * coordinator that leaves is not replaced), so once its coordinator has left it can do nothing:
 * the Hazelcast worker then leaves its cluster, and {@link PekkoWorker#terminated()} promises to
 * complete when the member is "downed, retired or closed".
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PekkoWorkerRegressionTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    /**
     * Before: the coordinator's orderly leave reached the worker (its roster forgot the
     * coordinator) and nothing more happened: the worker stayed an orphan member, alone in a
     * cluster of the coordinator's name on its port, and {@code terminated()} never completed, so
     * {@code WorkerMain}, which waits for it, never exited.
     */
    @Test
    void aWorkerWhoseCoordinatorClosesLeavesAndTerminates() throws Exception {
        OneWorkerCluster c = OneWorkerCluster.start(started, "orphan", 1);
        int[] ports = c.ports();
        PekkoWorker worker = c.worker();
        PekkoCoordinator coordinator = c.coordinator();
        assertThat(coordinator.client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(worker.terminated().toCompletableFuture()).as("terminated() while its coordinator runs").isNotDone();
        assertThat(worker.coordinatorLost()).as("coordinatorLost() while its coordinator runs").isFalse();

        coordinator.close();

        // the bound only turns a worker that never leaves into a failure; leaving takes seconds
        assertThat(worker.terminated().toCompletableFuture()).as("terminated() after its coordinator closed")
                .succeedsWithin(Duration.ofSeconds(60));
        assertThat(worker.retired()).as("retired (it was not: its coordinator left)").isFalse();
        assertThat(worker.coordinatorLost()).as("coordinatorLost() after its coordinator closed").isTrue();
        // its member is down (as close() leaves it), so the orphan holds no port a successor needs
        assertThat(OrderlyCloseTest.bindable(ports[1])).as("the worker's port is free").isNull();
    }
}
