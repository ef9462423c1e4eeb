/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorIdentity;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSelection;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Identify;
import org.apache.pekko.actor.Kill;
import org.apache.pekko.actor.PoisonPill;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.pattern.Patterns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Artery delivered Pekko's own messages from any member to any actor, Spindle's endpoints
 * included: a member with a certificate of the cluster's CA and no Spindle role (which Spindle
 * refuses) stopped a member's endpoint with a {@link PoisonPill} or a {@link Kill}, through an
 * actor selection or a reference it resolved itself, and the member went deaf (see
 * {@link EndpointStoppedByAMemberTest} for what that did, and what a member does now if its endpoint
 * stops all the same). Members now run Artery's untrusted mode: such messages from another member
 * are discarded, and only the endpoint and the cluster's own daemons take actor selections. Found
 * in review: before, each endpoint was stopped (its identity came back empty).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HarmfulPekkoMessagesAreDiscardedTest {

    private static final String CLUSTER = "harmful";

    private static PekkoWorker worker;
    private static PekkoCoordinator coordinator;
    private static ActorSystem impostor;

    @BeforeAll
    static void startCluster() throws Exception {
        int[] ports = FreePorts.free(2);
        String seed = "127.0.0.1:" + ports[0];
        worker = PekkoWorker.start(TestCerts.settings(CLUSTER, "worker").seedNode(seed).port(ports[1]).build(), 0, 1);
        coordinator = PekkoCoordinator.start(TestCerts.settings(CLUSTER, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60));
        impostor = PekkoConfigs.start(TestCerts.settings(CLUSTER, "impostor").build(), List.of(),
                new WireCodec(List.of(), PekkoClusterSettings.MIN_MESSAGE_BYTES), new Refusals("member"));
        Cluster members = Cluster.get(impostor);
        CompletableFuture<Void> up = new CompletableFuture<>();
        members.registerOnMemberUp(() -> up.complete(null));
        members.joinSeedNodes(PekkoConfigs.addresses(CLUSTER, List.of(seed)));
        up.get(45, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopCluster() {
        if (impostor != null) {
            PekkoConfigs.stop(impostor);
        }
        if (coordinator != null) {
            coordinator.close();
        }
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void aPoisonPillOrAKillFromAnotherMemberLeavesEveryEndpointRunning() throws Exception {
        for (String member : List.of(coordinator.address(), worker.address())) {
            String path = "pekko://" + CLUSTER + "@" + member + "/user/" + PekkoConfigs.ENDPOINT;
            ActorSelection selected = impostor.actorSelection(path);
            selected.tell(PoisonPill.getInstance(), ActorRef.noSender());
            selected.tell(Kill.getInstance(), ActorRef.noSender());
            // the identification travels after the pills, on the same connection to the same recipient
            assertThat(identify(selected)).as("the endpoint at " + member + " after pills through a selection").isTrue();

            ActorRef resolved = ((ExtendedActorSystem) impostor).provider().resolveActorRef(path);
            resolved.tell(PoisonPill.getInstance(), ActorRef.noSender());
            resolved.tell(Kill.getInstance(), ActorRef.noSender());
            assertThat(identify(resolved)).as("the endpoint at " + member + " after pills to a resolved reference").isTrue();
        }
        assertThat(coordinator.client().submit("after-the-pills", in -> 6 * 7).get(30, TimeUnit.SECONDS)).isEqualTo(42);
        assertThat(worker.coordinatorLost()).as("the worker still follows its coordinator").isFalse();
    }

    /** Whether the actor answers an {@link Identify} as a live actor. */
    private static boolean identify(Object target) throws Exception {
        Identify identify = new Identify(1);
        Duration wait = Duration.ofSeconds(20);
        Object answer = (target instanceof ActorSelection s ? Patterns.ask(s, identify, wait)
                : Patterns.ask((ActorRef) target, identify, wait)).toCompletableFuture().get(30, TimeUnit.SECONDS);
        return answer instanceof ActorIdentity id && id.getActorRef().isPresent();
    }
}
