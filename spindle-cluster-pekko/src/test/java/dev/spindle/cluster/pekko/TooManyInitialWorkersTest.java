/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

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
 * The coordinator's roster refuses a worker that claims an id from
 * {@link ClusterCoordinator#MAX_WORKERS} on, so a cluster that starts with more workers can never
 * have them all: its start bound the member port and waited out the whole join timeout, then
 * reported the workers as not having joined. Such settings are now refused at once, before
 * anything is started.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TooManyInitialWorkersTest {

    @Test
    void aClusterOfMoreWorkersThanIdsIsRefusedBeforeItsMemberStarts() throws Exception {
        int port = FreePorts.free();
        CoordinatorSettings tooMany = CoordinatorSettings.builder().workers(ClusterCoordinator.MAX_WORKERS + 1).build();
        assertThatThrownBy(() -> PekkoCoordinator.start(TestCerts.settings("toomany", "coordinator").port(port).build(),
                tooMany, Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + ClusterCoordinator.MAX_WORKERS);
        try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            // nothing was started: the port is free
        }
    }
}
