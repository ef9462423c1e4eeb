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
import dev.spindle.testkit.Await;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.PoisonPill;
import org.apache.pekko.cluster.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A member with a certificate of the cluster's CA (refused by Spindle: it has no Spindle role)
 * sends a {@link PoisonPill} to another member's endpoint actor: Artery delivers it (it is one of
 * Pekko's own messages, not a Spindle frame), and the actor stops. The member stayed in the
 * cluster, its heartbeats and markers flowing, but deaf: on the coordinator no result arrived any
 * more and every future in flight stayed pending for good; on a worker no task arrived, and every
 * task sent to it waited for good. Found in review (both tests failed before the fix: the futures
 * were still pending after 30 s). A member whose endpoint stops while the member runs now stops
 * too, in order: its peers see it leave, as if it had been downed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EndpointStoppedByAMemberTest {

    static final CountDownLatch STARTED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aCoordinatorWhoseEndpointIsStoppedFailsItsFuturesInsteadOfWaitingForGood() throws Exception {
        try {
            Members m = start("poisoned-coordinator");
            ClusterFuture<Integer> running = m.coordinator.client().submit("running", in -> {
                STARTED.countDown();
                RELEASE.await(60, TimeUnit.SECONDS);
                return 1;
            });
            assertThat(STARTED.await(30, TimeUnit.SECONDS)).as("the worker runs 'running'").isTrue();

            poison(m.impostor, m.coordinator.address());

            assertThatThrownBy(() -> running.get(30, TimeUnit.SECONDS))
                    .as("the future of a task in flight on a coordinator whose endpoint was stopped")
                    .isInstanceOf(ExecutionException.class);
        } finally {
            RELEASE.countDown();
        }
    }

    @Test
    void aWorkerWhoseEndpointIsStoppedLeavesSoThatItsTasksDoNotWaitForGood() throws Exception {
        Members m = start("poisoned-worker");
        assertThat(m.coordinator.client().submit("before", in -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);

        poison(m.impostor, m.worker.address());
        // the pill travels on the impostor's connection, a task on the coordinator's: sent once it has
        // arrived, so that the task finds the endpoint stopped (or the worker gone, after the fix)
        ActorSystem workerSystem = workerSystem(m.worker);
        Await.until("the worker's endpoint has stopped", () -> !endpointRuns(workerSystem));
        ClusterFuture<Integer> after = m.coordinator.client().submit("after", in -> 2);

        // the only worker gone, the task fails after the scheduler's noWorkerTimeout (1 s here)
        assertThatThrownBy(() -> after.get(30, TimeUnit.SECONDS))
                .as("a task for a worker whose endpoint was stopped")
                .isInstanceOf(ExecutionException.class);
        m.worker.terminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private record Members(PekkoWorker worker, PekkoCoordinator coordinator, ActorSystem impostor) {
    }

    /** One worker, its coordinator and a member with a certificate but no Spindle role. */
    private Members start(String cluster) throws Exception {
        int[] ports = FreePorts.free(2);
        String seed = "127.0.0.1:" + ports[0];
        PekkoWorker worker = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker")
                .seedNode(seed).port(ports[1]).build(), 0, 1));
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).noWorkerTimeout(Duration.ofSeconds(1))
                        .build(), Duration.ofSeconds(60)));
        ActorSystem impostor = PekkoConfigs.start(TestCerts.settings(cluster, "impostor").build(), List.of(),
                new WireCodec(List.of(), PekkoClusterSettings.MIN_MESSAGE_BYTES), new Refusals("member"));
        started.add(() -> PekkoConfigs.stop(impostor));
        Cluster members = Cluster.get(impostor);
        CompletableFuture<Void> up = new CompletableFuture<>();
        members.registerOnMemberUp(() -> up.complete(null));
        members.joinSeedNodes(PekkoConfigs.addresses(cluster, List.of(seed)));
        up.get(45, TimeUnit.SECONDS);
        return new Members(worker, coordinator, impostor);
    }

    private static ActorSystem workerSystem(PekkoWorker worker) throws Exception {
        Field f = PekkoWorker.class.getDeclaredField("system");
        f.setAccessible(true);
        return (ActorSystem) f.get(worker);
    }

    /** Whether {@code system}'s endpoint actor runs (a look-up that fails says it does not). */
    private static boolean endpointRuns(ActorSystem system) {
        try {
            system.actorSelection("/user/" + PekkoConfigs.ENDPOINT).resolveOne(Duration.ofSeconds(5))
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
            return true;
        } catch (Exception notFound) {
            return false;
        }
    }

    /** Sends a PoisonPill to the endpoint actor of the member at {@code hostPort}. */
    private static void poison(ActorSystem impostor, String hostPort) {
        impostor.actorSelection("pekko://" + Cluster.get(impostor).selfAddress().system() + "@" + hostPort
                + "/user/" + PekkoConfigs.ENDPOINT).tell(PoisonPill.getInstance(), ActorRef.noSender());
    }
}
