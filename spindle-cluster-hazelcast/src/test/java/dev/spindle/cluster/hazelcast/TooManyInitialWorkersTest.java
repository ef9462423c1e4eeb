/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator refuses a worker that proves an id from {@link ClusterCoordinator#MAX_WORKERS}
 * on, so a cluster that starts with more workers can never have them all: its start bound the
 * member port and waited out the whole join timeout, then reported the workers as not having
 * joined. Such settings are now refused at once, before anything is started.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TooManyInitialWorkersTest {

    @Test
    void aClusterOfMoreWorkersThanIdsIsRefusedBeforeItsMemberStarts() throws Exception {
        int[] ports = FreePorts.free(1);
        CoordinatorSettings tooMany = CoordinatorSettings.builder().workers(ClusterCoordinator.MAX_WORKERS + 1).build();
        assertThatThrownBy(() -> HazelcastCoordinator.start(InProcessClusterTest.settings("spindle-too-many-"
                + ports[0], "too-many-workers-secret-0123456789", ports[0], ports).build(), tooMany, Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + ClusterCoordinator.MAX_WORKERS);
        try (ServerSocket free = new ServerSocket(ports[0], 1, InetAddress.getByName("127.0.0.1"))) {
            // nothing was started: the port is free
        }
    }
}
