/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.Hazelcast;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.PoolThreads;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A throwable between the start of the coordinator's member and its wait for the workers (an
 * Error, say an OutOfMemoryError starting the scheduler): {@link HazelcastCoordinator#start} stops
 * what it started before it throws. It escaped before the try that closes them, and left the
 * scheduler's threads running and the member up, its port bound, for the life of the JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StartFailureCleanupRegressionTest {

    private static final String SECRET = "start-failure-regression-secret-0123";

    @AfterEach
    void clearSeams() {
        HazelcastCoordinator.afterSchedulerStartForTests = () -> { };
        HazelcastCoordinator.afterSchedulerCloseForTests = () -> { };
        HazelcastWorker.afterMemberStartForTests = () -> { };
    }

    /** Whether a member of {@code cluster} runs in this JVM; shuts down any found, so none outlives the test. */
    private static boolean memberUp(String cluster) {
        boolean up = Hazelcast.getAllHazelcastInstances().stream()
                .anyMatch(i -> i.getConfig().getClusterName().equals(cluster) && i.getLifecycleService().isRunning());
        if (up) {
            Hazelcast.getAllHazelcastInstances().stream()
                    .filter(i -> i.getConfig().getClusterName().equals(cluster)).forEach(i -> i.shutdown());
        }
        return up;
    }

    @Test
    void anErrorAfterTheMemberStartsStopsTheMemberAndTheScheduler() throws Exception {
        int[] ports = FreePorts.free(1);
        String cluster = "spindle-start-failure-" + ports[0];
        PoolThreads scheduler = PoolThreads.since("cluster-scheduler");
        HazelcastCoordinator.afterSchedulerStartForTests = () -> {
            throw new OutOfMemoryError("injected after the scheduler started");
        };
        assertThatThrownBy(() -> HazelcastCoordinator.start(InProcessClusterTest.settings(cluster, SECRET, ports[0],
                ports).build(), CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(),
                Duration.ofSeconds(30))).isInstanceOf(OutOfMemoryError.class);
        boolean memberUp = Hazelcast.getAllHazelcastInstances().stream()
                .anyMatch(i -> i.getConfig().getClusterName().equals(cluster) && i.getLifecycleService().isRunning());
        if (memberUp) {
            Hazelcast.getAllHazelcastInstances().stream()
                    .filter(i -> i.getConfig().getClusterName().equals(cluster)).forEach(i -> i.shutdown());
        }
        assertThat(memberUp).as("the coordinator's member still running after start threw").isFalse();
        assertThat(scheduler.lingeringAfter(Duration.ofSeconds(10)))
                .as("scheduler threads still running after start threw").isEmpty();
    }

    /**
     * The scheduler's close in that cleanup throws too: the member is still shut down. The cleanup
     * closed the scheduler, the transport and the member one after another, so a close that threw
     * skipped the member's shutdown.
     */
    @Test
    void aFailedStartWhoseSchedulerCloseThrowsStillStopsTheMember() throws Exception {
        int[] ports = FreePorts.free(1);
        String cluster = "spindle-start-failure-close-" + ports[0];
        HazelcastCoordinator.afterSchedulerStartForTests = () -> {
            throw new IllegalStateException("injected after the scheduler started");
        };
        HazelcastCoordinator.afterSchedulerCloseForTests = () -> {
            throw new OutOfMemoryError("injected in the scheduler's close");
        };
        assertThatThrownBy(() -> HazelcastCoordinator.start(InProcessClusterTest.settings(cluster, SECRET, ports[0],
                ports).build(), CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(),
                Duration.ofSeconds(30))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("injected after the scheduler started")
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement().isInstanceOf(OutOfMemoryError.class));
        assertThat(memberUp(cluster)).as("the coordinator's member still running after start threw").isFalse();
    }

    /**
     * A worker's start that throws once its member has started (here as attaching the transport)
     * shuts the member down and stops the worker's pool. It left the member in the cluster, its
     * port bound, with no worker returned for the caller to close.
     */
    @Test
    void aWorkerStartThatFailsAfterTheMemberStartsStopsTheMemberAndThePool() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-worker-start-failure-" + ports[0];
        PoolThreads pool = PoolThreads.since("cluster-worker-0");
        HazelcastWorker.afterMemberStartForTests = () -> {
            throw new IllegalStateException("injected after the member started");
        };
        assertThatThrownBy(() -> HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports)
                .build(), 0, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("injected after the member started");
        assertThat(memberUp(cluster)).as("the worker's member still running after start threw").isFalse();
        assertThat(pool.lingeringAfter(Duration.ofSeconds(10)))
                .as("the worker's pool threads still running after start threw").isEmpty();
    }
}
