/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.RemoteTaskException;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A message over the receiver's frame limit ({@link HazelcastClusterSettings#maxFrameBytes}) fails
 * its task, as on the Pekko transport, instead of being sent, refused on arrival as oversized and
 * leaving the task to hang while its worker lives.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FrameLimitTest {

    private static final int LIMIT = 8192;

    @Test
    void aResultOrATaskOverTheFrameLimitFailsItsTaskInsteadOfHanging() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-limit-" + ports[0];
        try (Cleanup cleanup = new Cleanup()) {
            cleanup.add(HazelcastWorker.start(settings(cluster, ports[1], ports), 0, 2));
            HazelcastCoordinator c = cleanup.add(HazelcastCoordinator.start(settings(cluster, ports[0], ports),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60)));
            Client client = c.client();
            assertThat(client.submit("fine", a -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);

            // the worker's result frame is over the coordinator's limit
            ClusterFuture<byte[]> bigResult = client.submit("big-result", a -> new byte[4 * LIMIT]);
            assertThatThrownBy(() -> bigResult.get(20, TimeUnit.SECONDS)).as("a result over the frame limit")
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RemoteTaskException.class);

            // the coordinator's task frame is over the worker's limit
            byte[] captured = new byte[4 * LIMIT];
            ClusterFuture<Integer> bigTask = client.submit("big-task", a -> captured.length);
            assertThatThrownBy(() -> bigTask.get(20, TimeUnit.SECONDS)).as("a task over the frame limit")
                    .isInstanceOf(ExecutionException.class).cause().hasMessageContaining("cannot be sent");

            assertThat(client.submit("still-fine", a -> 2).get(30, TimeUnit.SECONDS)).isEqualTo(2);
        }
    }

    private static HazelcastClusterSettings settings(String cluster, int port, int[] ports) {
        return InProcessClusterTest.settings(cluster, "frame-limit-secret-0123456789", port, ports)
                .maxFrameBytes(LIMIT).build();
    }
}
