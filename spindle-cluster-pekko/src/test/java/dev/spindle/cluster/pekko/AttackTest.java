/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.testkit.Await;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.TaskFunction;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.setup.ActorSystemSetup;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.remote.artery.tcp.SSLEngineProviderSetup;
import org.apache.pekko.serialization.SerializationSetup;
import org.apache.pekko.serialization.SerializerDetails;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Attacks on a running cluster (a coordinator and one worker, in this JVM, over mutual TLS) by
 * members with and without the cluster's trust: each must fail without disturbing the cluster,
 * and the coordinator's counters must show it.
 *
 * <p>Replay is not tested here because it is not possible at this layer: Artery's TLS 1.3
 * connection numbers and authenticates every record (AEAD), so a recorded record replayed into
 * a connection fails authentication, and a recorded connection cannot be replayed because each
 * handshake has fresh keys. Members that name another as the sender of their frames are
 * {@link SenderSpoofingTest}'s.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AttackTest {

    private static final String CLUSTER = "attacked";
    private static final AtomicInteger IMPOSTOR_TASKS_RAN = new AtomicInteger();
    private static final AtomicInteger IMPOSTOR_RECEIVED = new AtomicInteger();

    private static PekkoWorker worker;
    private static PekkoCoordinator coordinator;
    private static String seed;

    @BeforeAll
    static void startCluster() throws Exception {
        int port = FreePorts.free();
        seed = "127.0.0.1:" + port;
        worker = PekkoWorker.start(TestCerts.settings(CLUSTER, "worker").seedNode(seed).build(), 0, 2);
        coordinator = PekkoCoordinator.start(TestCerts.settings(CLUSTER, "coordinator").port(port).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopCluster() {
        if (coordinator != null) {
            coordinator.close();
        }
        if (worker != null) {
            worker.close();
        }
    }


    /** The cluster still runs tasks for its own coordinator, on its own worker. */
    private static void clusterStillWorks(String key) throws Exception {
        clusterStillWorks(key, 2);
    }

    private static void clusterStillWorks(String key, int members) throws Exception {
        long ran = worker.executed();
        assertThat(coordinator.client().submit(key, args -> 6 * 7).get(30, TimeUnit.SECONDS)).isEqualTo(42);
        assertThat(worker.executed()).isEqualTo(ran + 1);
        assertThat(coordinator.membersUp()).isEqualTo(members);
        assertThat(worker.coordinator()).isEqualTo(coordinator.address());
    }

    /** An impostor's endpoint: counts whatever reaches it. */
    static final class Inbox extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().matchAny(m -> IMPOSTOR_RECEIVED.incrementAndGet()).build();
        }
    }

    @Test
    void aMemberWithASelfSignedCertificateCannotJoin() throws Exception {
        long refused = coordinator.refusedMembers();
        try (PekkoWorker stranger = PekkoWorker.start(TestCerts.settings(CLUSTER, "stranger").seedNode(seed).build(), 0, 1)) {
            // the coordinator's TLS refuses the stranger's certificate, and counts it
            Await.until("the coordinator refused the stranger", Duration.ofSeconds(45), () -> coordinator.refusedMembers() > refused);
            assertThat(stranger.joined().toCompletableFuture()).isNotDone();
            assertThat(coordinator.membersUp()).isEqualTo(2);
        }
        clusterStillWorks("after-stranger");
    }

    @Test
    void aMemberWithoutTlsCannotJoin() throws Exception {
        Config plain = PekkoConfigs.config(TestCerts.settings(CLUSTER, "worker").build(), Roster.workerRoles(0, dev.spindle.cluster.Incarnations.newIncarnation()))
                .withValue("pekko.remote.artery.transport", ConfigValueFactory.fromAnyRef("tcp"));
        long refused = coordinator.refusedMembers();
        ActorSystem system = ActorSystem.create(CLUSTER, plain);
        try {
            Cluster joiner = Cluster.get(system);
            joiner.joinSeedNodes(PekkoConfigs.addresses(CLUSTER, List.of(seed)));
            // the coordinator's TLS refuses the plaintext connection, and counts it
            Await.until("the coordinator refused the plaintext joiner", Duration.ofSeconds(45), () -> coordinator.refusedMembers() > refused);
            assertThat(joiner.selfMember().status()).isNotEqualTo(MemberStatus.up());
            assertThat(coordinator.membersUp()).isEqualTo(2);
        } finally {
            PekkoConfigs.stop(system);
        }
        clusterStillWorks("after-plaintext");
    }

    @Test
    void aSecondCoordinatorWithAValidCertificateIsRefused() throws Exception {
        long refusedByCoordinator = coordinator.refusedMembers();
        PekkoClusterSettings impostor = TestCerts.settings(CLUSTER, "impostor").seedNode(seed).build();
        assertThatThrownBy(() -> PekkoCoordinator.start(impostor,
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already has a coordinator");
        Await.until("the coordinator refused the second coordinator", Duration.ofSeconds(45), () -> coordinator.refusedMembers() > refusedByCoordinator);
        assertThat(worker.coordinator()).isEqualTo(coordinator.address());
        Await.until("the second coordinator left", Duration.ofSeconds(45), () -> coordinator.membersUp() == 2);
        clusterStillWorks("after-second-coordinator");
    }

    @Test
    void anImpostorCoordinatorThatStaysGetsNothingRunAndNoResults() throws Exception {
        Refusals refusals = new Refusals("member");
        WireCodec codec = new WireCodec(List.of(), PekkoClusterSettings.MIN_MESSAGE_BYTES);
        ActorSystem impostor = PekkoConfigs.start(TestCerts.settings(CLUSTER, "impostor").build(),
                List.of(Roster.COORDINATOR_ROLE), codec, refusals);
        long refusedByWorker = worker.refusedMembers();
        try {
            impostor.actorOf(Props.create(Inbox.class, Inbox::new), PekkoConfigs.ENDPOINT);
            joinAndAwaitUp(impostor);
            Await.until("the worker refused to follow the impostor", Duration.ofSeconds(45), () -> worker.refusedMembers() > refusedByWorker);
            long ranBefore = worker.executed();
            long rejectedBefore = worker.rejectedFrames();
            TaskFunction<Integer> payload = args -> IMPOSTOR_TASKS_RAN.incrementAndGet();
            dev.spindle.cluster.WireMessage.Compute compute = new dev.spindle.cluster.WireMessage.Compute("stolen", 1, codec.serialize(payload), List.of(), Map.of(), 0);
            Outbox outbox = new Outbox(impostor, codec);
            String workerAddress = "pekko://" + CLUSTER + "@" + worker.address();
            org.apache.pekko.actor.Address target = org.apache.pekko.actor.AddressFromURIString.parse(workerAddress);
            outbox.send(target, new Wire.Frame(0, compute), Wire.Seal.NONE);
            // a probe is answered only for the worker's own coordinator: no reply reaches the impostor
            CompletableFuture<Object> probe = outbox.ask(target, new Wire.Frame(0,
                    new Wire.Probe(0, dev.spindle.cluster.FrameMac.randomToken())), Wire.Seal.NONE, Duration.ofSeconds(3)).toCompletableFuture();
            assertThatThrownBy(() -> probe.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            Await.until("the worker rejected the impostor's frames", Duration.ofSeconds(45), () -> worker.rejectedFrames() >= rejectedBefore + 2);
            assertThat(IMPOSTOR_TASKS_RAN).hasValue(0);
            assertThat(worker.executed()).isEqualTo(ranBefore);
            // while the impostor is a member, the cluster's results still go to its own coordinator only
            clusterStillWorks("while-the-impostor-is-there", 3);
            assertThat(IMPOSTOR_RECEIVED).as("frames the impostor's endpoint received").hasValue(0);
        } finally {
            PekkoConfigs.stop(impostor);
        }
        Await.until("the impostor left", Duration.ofSeconds(45), () -> coordinator.membersUp() == 2);
        clusterStillWorks("after-impostor");
    }

    @Test
    void hostileFramesFromAValidMemberAreRejectedFast() throws Exception {
        PekkoClusterSettings settings = TestCerts.settings(CLUSTER, "impostor").build();
        ActorSystemSetup setup = ActorSystemSetup.create(
                BootstrapSetup.create(PekkoConfigs.config(settings, Roster.workerRoles(7, dev.spindle.cluster.Incarnations.newIncarnation()))),
                SSLEngineProviderSetup.create(system -> new TlsGuard(system, new Refusals("member"))),
                SerializationSetup.create(system -> List.of(SerializerDetails.create("raw", new RawSerializer(),
                        List.of(RawSerializer.RawBytes.class)))));
        ActorSystem rogue = ActorSystem.create(CLUSTER, setup);
        try {
            joinAndAwaitUp(rogue);
            long rejected = coordinator.rejectedFrames();
            org.apache.pekko.actor.Address target = org.apache.pekko.actor.AddressFromURIString.parse(
                    "pekko://" + CLUSTER + "@" + coordinator.address());
            for (byte[] hostile : List.of(Hostile.hashBomb(100), Hostile.lyingLength(Integer.MAX_VALUE),
                    Hostile.hugeArray())) {
                rogue.actorSelection(target + "/user/" + PekkoConfigs.ENDPOINT)
                        .tell(new RawSerializer.RawBytes(hostile), org.apache.pekko.actor.ActorRef.noSender());
            }
            // bounded: a hash bomb read without the depth limit would never finish
            assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> Await.until("three hostile frames rejected", Duration.ofSeconds(45), () -> coordinator.rejectedFrames() >= rejected + 3));
        } finally {
            PekkoConfigs.stop(rogue);
        }
        Await.until("the rogue member left", Duration.ofSeconds(45), () -> coordinator.membersUp() == 2);
        clusterStillWorks("after-hostile-frames");
    }

    private static void joinAndAwaitUp(ActorSystem system) throws Exception {
        Cluster cluster = Cluster.get(system);
        CompletableFuture<Void> up = new CompletableFuture<>();
        cluster.registerOnMemberUp(() -> up.complete(null));
        cluster.joinSeedNodes(PekkoConfigs.addresses(CLUSTER, List.of(seed)));
        up.get(45, TimeUnit.SECONDS);
    }
}
