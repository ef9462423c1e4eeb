/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator whose close throws once its scheduler has stopped (an Error, say an
 * OutOfMemoryError) still leaves the cluster. {@link HazelcastCoordinator#close} shut the member
 * down only if the scheduler's close returned: when it threw, the member stayed in the cluster
 * with nothing behind it, and its workers, which leave when their coordinator leaves the cluster
 * (a worker serves one coordinator), ran on for good, each {@link WorkerMain} idle instead of
 * exiting with the reason.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CoordinatorCloseThatThrowsTest {

    private static final String SECRET = "coordinator-close-throws-secret-0123";

    @AfterEach
    void clearSeam() {
        HazelcastCoordinator.afterSchedulerCloseForTests = () -> { };
    }

    @Test
    void aCoordinatorWhoseCloseThrowsLeavesTheClusterAndItsWorkersLeaveToo() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-coordinator-close-throws-" + ports[0];
        try (HazelcastWorker worker = HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports)
                .build(), 0, 1)) {
            CountDownLatch left = new CountDownLatch(1);
            worker.onMemberShutdown(left::countDown);
            HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60));
            try {
                assertThat(coordinator.client().submit("before", in -> 7).get(60, TimeUnit.SECONDS)).isEqualTo(7);
                HazelcastCoordinator.afterSchedulerCloseForTests = () -> {
                    throw new OutOfMemoryError("injected in the scheduler's close");
                };
                assertThatThrownBy(coordinator::close).isInstanceOf(OutOfMemoryError.class)
                        .hasMessageContaining("injected in the scheduler's close");
                HazelcastCoordinator.afterSchedulerCloseForTests = () -> { };

                // generous: the worker hears of its coordinator's leaving at once; before the fix it
                // never did, since the coordinator's member stayed
                assertThat(left.await(60, TimeUnit.SECONDS)).as("the worker left with its coordinator").isTrue();
                assertThat(worker.coordinatorLost()).as("why the worker left").isTrue();
            } finally {
                HazelcastCoordinator.afterSchedulerCloseForTests = () -> { };
                coordinator.close();          // without the fix its member would still run here
            }
        }
    }
}
