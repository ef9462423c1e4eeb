/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Members with different frame limits ({@link HazelcastClusterSettings#maxFrameBytes}): a member
 * sizes what it sends by its own limit, the receiver refuses what is over its own on arrival,
 * silently for the sender. A task frame the coordinator may send but the worker refuses would wait
 * for good, so the coordinator refuses such a worker at the handshake, and the worker learns why.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FrameLimitRegressionTest {

    private static final String SECRET = "frame-limit-regression-secret-0123";
    private static final int WORKER_LIMIT = 8192;

    @Test
    void aWorkerWithAnotherFrameLimitIsRefusedRatherThanLeftToDropTasks() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-limits-" + ports[0];
        try (Cleanup cleanup = new Cleanup()) {
            HazelcastWorker worker = cleanup.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET,
                    ports[1], ports).maxFrameBytes(WORKER_LIMIT).build(), 0, 2));
            // the coordinator keeps the default limit, far above the worker's
            CompletableFuture<HazelcastCoordinator> starting = new CompletableFuture<>();
            Thread starter = new Thread(() -> {
                try {
                    starting.complete(HazelcastCoordinator.start(
                            InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                            CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60)));
                } catch (Throwable t) {
                    starting.completeExceptionally(t);
                }
            }, "coordinator-start");
            starter.start();
            try {
                Throwable refused = null;
                try {
                    worker.awaitCoordinator(Duration.ofSeconds(60));
                } catch (MemberRefusedException e) {
                    refused = e;
                }
                if (refused == null) {
                    // admitted: then a task frame over the worker's limit must not wait for good
                    HazelcastCoordinator c = cleanup.add(starting.get(60, TimeUnit.SECONDS));
                    byte[] captured = new byte[4 * WORKER_LIMIT];
                    ClusterFuture<Integer> big = c.client().submit("big-task", in -> captured.length);
                    try {
                        big.get(20, TimeUnit.SECONDS);
                    } catch (ExecutionException failed) {
                        // failing the task is acceptable; hanging is not
                    } catch (TimeoutException hung) {
                        throw new AssertionError("a task frame over the worker's frame limit (" + WORKER_LIMIT
                                + ", the coordinator's " + HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES
                                + ") was admitted and waits for good", hung);
                    }
                }
                assertThat(refused).as("the worker with another frame limit is refused")
                        .isInstanceOf(MemberRefusedException.class).hasMessageContaining("frame limit");
                assertThat(starting).as("the coordinator still waiting for its one worker").isNotDone();
            } finally {
                starter.interrupt();          // start() closes what it started when interrupted
                starter.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThatThrownBy(() -> starting.get(1, TimeUnit.SECONDS)).hasCauseInstanceOf(InterruptedException.class);
        }
    }
}
