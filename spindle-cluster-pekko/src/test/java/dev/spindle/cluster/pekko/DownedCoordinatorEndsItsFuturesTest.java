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
import dev.spindle.cluster.testkit.LogLines;
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
 * ten minutes for a worker here, as an application that lets workers join late may). The
 * scheduler's close is logged as a WARNING then, and only then: not on an orderly close, whose
 * actor system terminates too.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DownedCoordinatorEndsItsFuturesTest {

    static final CountDownLatch STARTED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @RegisterExtension
    final Cleanup started = new Cleanup();

    private PekkoCoordinator startCluster(String cluster) throws Exception {
        int[] ports = FreePorts.free(2);
        started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build(), 0, 1));
        return started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1)
                        .noWorkerTimeout(Duration.ofMinutes(10)).build(), Duration.ofSeconds(60)));
    }

    @Test
    void aDownedCoordinatorFailsItsPendingFuturesAndRefusesNewTasks() throws Exception {
        try (LogLines log = LogLines.of(PekkoCoordinator.class)) {
            PekkoCoordinator coordinator = startCluster("downed-coordinator");
            ClusterFuture<Integer> running = coordinator.client().submit("running", in -> {
                STARTED.countDown();
                RELEASE.await(60, TimeUnit.SECONDS);
                return 1;
            });
            assertThat(STARTED.await(30, TimeUnit.SECONDS)).as("the worker runs 'running'").isTrue();

            Cluster members = Cluster.get(coordinator.systemForTests());
            members.down(members.selfAddress());
            coordinator.systemForTests().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
            // logged by the termination callback, which has run once the system is terminated
            assertThat(log.records()).as("what the coordinator logged as its member stopped").singleElement()
                    .satisfies(r -> {
                        assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
                        assertThat(r.getMessage()).contains("stopped with its scheduler open");
                    });

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

    /**
     * An orderly close terminates the actor system too, and its termination callback runs: having
     * closed the scheduler itself, the close leaves it alone and nothing is logged.
     */
    @Test
    void anOrderlyCloseLogsNoWarning() throws Exception {
        PekkoCoordinator coordinator = startCluster("orderly-coordinator");
        assertThat(coordinator.client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        try (LogLines log = LogLines.of(PekkoCoordinator.class)) {
            coordinator.close();              // returns once the actor system has terminated

            assertThat(coordinator.systemForTests().getWhenTerminated().toCompletableFuture().isDone()).isTrue();
            assertThat(log.lines()).as("what the coordinator logged as it closed").isEmpty();
        }
    }
}
