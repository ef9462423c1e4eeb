/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Members whose message limits differ (the coordinator configured in code, a worker started by
 * {@code WorkerMain} with its default): a task message the coordinator may send but the worker may
 * not read must never vanish on arrival and leave the task waiting. Before the fix the worker was
 * admitted and such a task waited for good (its frame refused on arrival, the task never run nor
 * failed); now the coordinator refuses a worker whose limit is not its own, and the worker, which
 * the coordinator tells nothing, sees the mismatch in the coordinator's roles and leaves with the
 * reason instead of idling in the cluster for good.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FrameLimitRegressionTest {

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aWorkerWithAnotherMessageLimitIsRefusedInsteadOfGettingTasksItCannotRead() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "limits";
        PekkoWorker worker = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode("127.0.0.1:" + ports[0])
                .port(ports[1]).maxMessageBytes(PekkoClusterSettings.MIN_MESSAGE_BYTES).build(), 0, 1));
        PekkoCoordinator coordinator;
        try {
            coordinator = started.add(PekkoCoordinator.start(
                    TestCerts.settings(cluster, "coordinator").port(ports[0]).maxMessageBytes(1 << 20).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(15)));
        } catch (TimeoutException refused) {
            // the fix: the mismatch is refused at membership, named in the log and in the count
            assertThat(refused).hasMessageContaining("0 of 1 workers joined").hasMessageContaining("1 members refused");
            // the coordinator tells the worker nothing, but it sees the coordinator's limit, knows it
            // is refused and leaves instead of idling (the bound is a hang guard: it leaves as soon
            // as it sees the coordinator, well within the coordinator's wait)
            worker.terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertThat(worker.refusal()).isEqualTo("the coordinator at 127.0.0.1:" + ports[0]
                    + " has a message limit of " + (1 << 20) + " bytes, this worker "
                    + PekkoClusterSettings.MIN_MESSAGE_BYTES + ": every member needs the same maxMessageBytes, "
                    + "so the coordinator refuses this worker");
            return;
        }
        // admitted: then a task within the coordinator's limit but over the worker's must at least fail
        assertThat(coordinator.client().submit("small", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        byte[] captured = new byte[200_000];   // over the worker's frame limit, under the coordinator's
        ClusterFuture<Integer> large = coordinator.client().submit("large", in -> captured.length);
        // the bound only tells a task that waits for good from one that fails or runs
        assertThatThrownBy(() -> large.get(30, TimeUnit.SECONDS)).as("a task the worker cannot read")
                .isInstanceOf(ExecutionException.class);
    }
}
