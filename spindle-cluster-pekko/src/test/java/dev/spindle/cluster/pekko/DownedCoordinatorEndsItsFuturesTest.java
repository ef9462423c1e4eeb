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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.cluster.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The coordinator's member can stop without {@link PekkoCoordinator#close()}: any member may down
 * it (a certificate holder, an operator's tool), and a downed member's actor system terminates.
 * Its scheduler went on as if nothing had happened: no frame could arrive any more, yet the
 * futures of the tasks in flight stayed pending (they failed only once the scheduler, told of its
 * workers' leaving if it was told in time, had waited its {@code noWorkerTimeout} for a worker to
 * join a coordinator nobody can reach, and failed them as "no allowed worker is alive"), and the
 * client took new tasks that went nowhere. Found in review: before the fix the future below was
 * still pending 20 s after the coordinator's actor system had terminated (the scheduler waits up to
 * ten minutes for a worker here, as an application that lets workers join late may).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DownedCoordinatorEndsItsFuturesTest {

    static final CountDownLatch STARTED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aDownedCoordinatorFailsItsPendingFuturesAndRefusesNewTasks() throws Exception {
        try {
            String cluster = "downed-coordinator";
            int[] ports = FreePorts.free(2);
            started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker")
                    .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build(), 0, 1));
            PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                    TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1)
                            .noWorkerTimeout(Duration.ofMinutes(10)).build(), Duration.ofSeconds(60)));
            ClusterFuture<Integer> running = coordinator.client().submit("running", in -> {
                STARTED.countDown();
                RELEASE.await(60, TimeUnit.SECONDS);
                return 1;
            });
            assertThat(STARTED.await(30, TimeUnit.SECONDS)).as("the worker runs 'running'").isTrue();

            Cluster members = Cluster.get(coordinator.systemForTests());
            members.down(members.selfAddress());
            coordinator.systemForTests().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);

            assertThatThrownBy(() -> running.get(20, TimeUnit.SECONDS))
                    .as("the future of a task in flight when the coordinator's member stopped")
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> coordinator.client().submit("after", in -> 2))
                    .as("a task submitted once the coordinator's member has stopped")
                    .isInstanceOf(RejectedExecutionException.class);
        } finally {
            RELEASE.countDown();
        }
    }
}
