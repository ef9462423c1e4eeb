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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A member's endpoint actor stops while the member runs. Any member could do that with a
 * {@code PoisonPill} or a {@code Kill} until members ran Artery's untrusted mode
 * ({@link HarmfulPekkoMessagesAreDiscardedTest}); here it is stopped from within, as anything else
 * that stops it would. The member stayed in the cluster, its heartbeats and markers flowing, but
 * deaf: on the coordinator no result arrived any more and every future in flight stayed pending for
 * good; on a worker no task arrived, and every task sent to it waited for good. Found in review
 * (both tests failed before the fix, with the endpoint stopped by another member's PoisonPill: the
 * futures were still pending after 30 s). A member whose endpoint stops while the member runs now
 * stops too, in order: its peers see it leave, as if it had been downed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EndpointStoppedWhileTheMemberRunsTest {

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

            stopEndpoint(m.coordinator.systemForTests());

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

        ActorSystem workerSystem = workerSystem(m.worker);
        stopEndpoint(workerSystem);
        // sent once the stop has taken effect, so that the task finds the endpoint stopped (or the
        // worker gone, after the fix)
        Await.until("the worker's endpoint has stopped", () -> !endpointRuns(workerSystem));
        ClusterFuture<Integer> after = m.coordinator.client().submit("after", in -> 2);

        // the only worker gone, the task fails after the scheduler's noWorkerTimeout (1 s here)
        assertThatThrownBy(() -> after.get(30, TimeUnit.SECONDS))
                .as("a task for a worker whose endpoint was stopped")
                .isInstanceOf(ExecutionException.class);
        m.worker.terminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private record Members(PekkoWorker worker, PekkoCoordinator coordinator) {
    }

    /** One worker and its coordinator. */
    private Members start(String cluster) throws Exception {
        int[] ports = FreePorts.free(2);
        String seed = "127.0.0.1:" + ports[0];
        PekkoWorker worker = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker")
                .seedNode(seed).port(ports[1]).build(), 0, 1));
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).noWorkerTimeout(Duration.ofSeconds(1))
                        .build(), Duration.ofSeconds(60)));
        return new Members(worker, coordinator);
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

    /** Stops {@code system}'s endpoint actor from within the member. */
    private static void stopEndpoint(ActorSystem system) throws Exception {
        ActorRef endpoint = system.actorSelection("/user/" + PekkoConfigs.ENDPOINT).resolveOne(Duration.ofSeconds(10))
                .toCompletableFuture().get(20, TimeUnit.SECONDS);
        system.stop(endpoint);
    }
}
