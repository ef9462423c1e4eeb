/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.TaskFunction;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.cluster.Cluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member holding a certificate of the cluster's CA (no Spindle role) names the coordinator, or
 * a worker, as the sender of its messages: Artery carries the sender as the sending process
 * writes it. Before frames were sealed with a key per coordinator–worker pair
 * ({@link KeyExchange}), the worker ran such a task and the coordinator took such a result
 * (found in review; the run that failed is in docs/measurements/2026-11-29-s24/pekko-sender-spoofing/).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SenderSpoofingTest {

    private static final String CLUSTER = "spoofed";
    static final AtomicInteger IMPOSTOR_TASKS_RAN = new AtomicInteger();
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final CountDownLatch STARTED = new CountDownLatch(1);

    private static PekkoWorker worker;
    private static PekkoCoordinator coordinator;
    private static ActorSystem impostor;
    private static WireCodec codec;

    @BeforeAll
    static void startCluster() throws Exception {
        int port = FreePorts.free();
        String seed = "127.0.0.1:" + port;
        worker = PekkoWorker.start(TestCerts.settings(CLUSTER, "worker").seedNode(seed).build(), 0, 2);
        coordinator = PekkoCoordinator.start(TestCerts.settings(CLUSTER, "coordinator").port(port).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60));
        codec = new WireCodec(List.of(), PekkoClusterSettings.MIN_MESSAGE_BYTES);
        impostor = PekkoConfigs.start(TestCerts.settings(CLUSTER, "impostor").build(), List.of(), codec,
                new Refusals("member"));
        Cluster cluster = Cluster.get(impostor);
        CompletableFuture<Void> up = new CompletableFuture<>();
        cluster.registerOnMemberUp(() -> up.complete(null));
        cluster.joinSeedNodes(PekkoConfigs.addresses(CLUSTER, List.of(seed)));
        up.get(45, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopCluster() {
        RELEASE.countDown();
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

    /** The endpoint of the member at {@code hostPort}, as an ActorRef the impostor can name as a sender. */
    private static ActorRef endpointOf(String hostPort) {
        return ((ExtendedActorSystem) impostor).provider()
                .resolveActorRef("pekko://" + CLUSTER + "@" + hostPort + "/user/" + PekkoConfigs.ENDPOINT);
    }

    private static void tell(String targetHostPort, Wire.Frame frame, Wire.Seal seal, ActorRef claimedSender) {
        impostor.actorSelection("pekko://" + CLUSTER + "@" + targetHostPort + "/user/" + PekkoConfigs.ENDPOINT)
                .tell(new Wire.Encoded(codec.encode(frame, seal)), claimedSender);
    }


    private static Wire.Frame impostorTask(String key) {
        TaskFunction<Integer> payload = args -> IMPOSTOR_TASKS_RAN.incrementAndGet();
        return new Wire.Frame(0, new WireMessage.Compute(key, 1_000_000, codec.serialize(payload), List.of(), Map.of(), 0));
    }

    @Test
    void aWorkerDoesNotRunATaskFromAMemberThatNamesTheCoordinatorAsSender() throws Exception {
        long rejectedBefore = worker.rejectedFrames();
        tell(worker.address(), impostorTask("forged-sender"), Wire.Seal.NONE, endpointOf(coordinator.address()));
        Await.until("the worker refused the frame", () -> IMPOSTOR_TASKS_RAN.get() > 0 || worker.rejectedFrames() > rejectedBefore);
        assertThat(IMPOSTOR_TASKS_RAN).as("tasks the impostor got the worker to run").hasValue(0);
        assertThat(coordinator.client().submit("still-works", args -> 6 * 7).get(30, TimeUnit.SECONDS)).isEqualTo(42);
    }

    @Test
    void aForgedKeyOfferDoesNotGiveTheImpostorAKey() throws Exception {
        // the impostor offers its own token in the coordinator's name, as often as it likes; the
        // worker answers the coordinator's address, never the impostor's
        byte[] offer = FrameMac.randomToken();
        for (int i = 0; i < 16; i++) {
            byte[] o = i == 0 ? offer : FrameMac.randomToken();
            tell(worker.address(), new Wire.Frame(0, new Wire.Probe(0, o)), Wire.Seal.NONE, endpointOf(coordinator.address()));
        }
        long rejectedBefore = worker.rejectedFrames();
        // without the worker's token its best is a guess
        tell(worker.address(), impostorTask("forged-offer"), PairKey.derive(offer, FrameMac.randomToken()),
                endpointOf(coordinator.address()));
        Await.until("the worker refused the frame", () -> IMPOSTOR_TASKS_RAN.get() > 0 || worker.rejectedFrames() > rejectedBefore);
        assertThat(IMPOSTOR_TASKS_RAN).as("tasks the impostor got the worker to run").hasValue(0);
        assertThat(coordinator.client().submit("after-forged-offers", args -> 6 * 7).get(30, TimeUnit.SECONDS))
                .as("the worker kept the key it settled with its coordinator").isEqualTo(42);
    }

    @Test
    void theCoordinatorDoesNotTakeAResultFromAMemberThatNamesAWorkerAsSender() throws Exception {
        ClusterFuture<Integer> slow = coordinator.client().submit("slow", args -> {
            STARTED.countDown();
            RELEASE.await(60, TimeUnit.SECONDS);
            return 42;
        });
        assertThat(STARTED.await(30, TimeUnit.SECONDS)).as("the worker runs 'slow'").isTrue();
        // the worker's incarnation is public: it is one of its cluster roles, gossiped to every member
        long incarnation = worker.incarnation();
        List<Object> forged = new ArrayList<>();
        for (long attempt = 1; attempt <= 200; attempt++) {
            forged.add(new WireMessage.Finished(0, "slow", attempt, codec.serialize(666), 4, 0));
        }
        long rejectedBefore = coordinator.rejectedFrames();
        tell(coordinator.address(), new Wire.Frame(Wire.COORDINATOR, incarnation, forged), Wire.Seal.NONE,
                endpointOf(worker.address()));
        tell(coordinator.address(), new Wire.Frame(Wire.COORDINATOR, incarnation, forged),
                PairKey.derive(FrameMac.randomToken(), FrameMac.randomToken()), endpointOf(worker.address()));
        Await.until("the coordinator refused both frames", () -> slow.isDone() || coordinator.rejectedFrames() >= rejectedBefore + 2);
        assertThat(slow).as("not completed by the impostor").isNotDone();
        RELEASE.countDown();
        assertThat(slow.get(60, TimeUnit.SECONDS)).as("the result of task 'slow'").isEqualTo(42);
    }
}
