/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A member without the secret shuts down Spindle's message executor: {@code IExecutorService.shutdown()}
 * is cluster-wide in Hazelcast, and open-source Hazelcast lets any member that joined call it. The
 * coordinator's member then runs on with an inbox and outbox that refuse every frame for good. It
 * handled each worker it could no longer reach as lost and kept accepting tasks, each waiting out
 * the no-worker wait (here ten minutes), and so did every later one, a restarted worker's reports
 * refused in turn. Now a send that the stopped executor refuses closes the coordinator, with an
 * ERROR: its futures fail, new tasks are refused, and its member leaves (its workers with it).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessagesExecutorShutDownByAMemberTest {

    private static final String SECRET = "executor-shutdown-secret-0123456789";

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aCoordinatorWhoseMessageExecutorIsShutDownClosesInsteadOfWaiting() throws Exception {
        int[] ports = FreePorts.free(3);
        String cluster = "spindle-executor-shutdown-" + ports[0];
        started.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 1));
        HazelcastCoordinator coordinator = started.add(HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1)
                        .noWorkerTimeout(Duration.ofMinutes(10)).build(), Duration.ofSeconds(60)));
        Client client = coordinator.client();
        assertThat(client.submit("before", in -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);
        CountDownLatch left = new CountDownLatch(1);
        coordinator.instance().getLifecycleService().addLifecycleListener(e -> {
            if (e.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                left.countDown();
            }
        });

        HazelcastInstance intruder = Intruder.join(cluster, ports[2], ports, Map.of(), null);
        try {
            intruder.getExecutorService(HazelcastConfigs.MESSAGES).shutdown();
            assertThat(coordinator.instance().getExecutorService(HazelcastConfigs.MESSAGES).isShutdown())
                    .as("the coordinator's message executor, shut down from the intruder").isTrue();

            ClusterFuture<Integer> after = client.submit("after", in -> 2);
            assertThatThrownBy(() -> after.get(30, TimeUnit.SECONDS)).as("a task that can reach no worker")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> client.submit("later", in -> 3)).isInstanceOf(RejectedExecutionException.class);
            assertThat(left.await(30, TimeUnit.SECONDS)).as("the coordinator's member left the cluster").isTrue();
        } finally {
            intruder.shutdown();
        }
    }
}
