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
    void clearSeam() {
        HazelcastCoordinator.afterSchedulerStartForTests = () -> { };
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
}
