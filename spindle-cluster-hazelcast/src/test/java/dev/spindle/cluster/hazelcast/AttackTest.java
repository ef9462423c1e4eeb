/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.HostilePayloads;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The findings of issue 12, played by an attacker on the same host without the secret: a plain
 * Hazelcast member that joins with the cluster name that {@code ps} shows, copies the
 * coordinator's member attributes and sends what it likes. A coordinator and two workers run in
 * this JVM, on 127.0.0.1.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AttackTest {

    private static final String SECRET = "attack-test-secret-0123456789";
    private static final List<AutoCloseable> started = new ArrayList<>();
    private static int[] ports;
    private static String cluster;
    private static HazelcastCoordinator coordinator;
    private static final List<HazelcastWorker> workers = new ArrayList<>();
    private static HazelcastInstance attacker;
    /** Spindle tasks that reached the attacker's member. */
    private static final AtomicInteger received = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        ports = FreePorts.free(4);
        cluster = "spindle-attack-" + ports[0];
        try {
            for (int i = 0; i < 2; i++) {
                HazelcastWorker w = HazelcastWorker.start(
                        InProcessClusterTest.settings(cluster, SECRET, ports[1 + i], ports).build(), i, 2);
                started.add(w);
                workers.add(w);
            }
            coordinator = HazelcastCoordinator.start(InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                    CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60));
            started.add(0, coordinator);
            attacker = attacker(ports[3]);
        } catch (Exception | Error e) {
            stop();
            throw e;
        }
    }

    /**
     * A plain member with the cluster name, claiming the coordinator's role and worker attribute,
     * able to read Spindle's tasks (it registers the factory) and recording any that reach it.
     */
    private static HazelcastInstance attacker(int port) {
        Member real = coordinator.instance().getCluster().getLocalMember();
        HazelcastInstance hz = Intruder.join(cluster, port, ports, real.getAttributes(), new Endpoint() {
            @Override
            public void onFrame(byte[] frame) {
                received.incrementAndGet();
            }

            @Override
            public byte[] onFetch(byte[] frame) {
                received.incrementAndGet();
                return null;
            }

            @Override
            public byte[] onHandshake(byte[] message) {
                received.incrementAndGet();
                return null;
            }
        });
        started.add(hz::shutdown);
        return hz;
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : started) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort: the next member must still be stopped
            }
        }
        started.clear();
        workers.clear();
    }

    @Test
    void aMemberPosingAsTheCoordinatorIsRefusedAndGetsNothing() throws Exception {
        assertThat(attacker.getCluster().getMembers()).as("the attacker joined the Hazelcast cluster").hasSize(4);
        // it also challenges the workers as a coordinator would, and sends a verdict it cannot sign
        for (HazelcastWorker w : workers) {
            Member target = w.instanceForTests().getCluster().getLocalMember();
            UUID self = attacker.getCluster().getLocalMember().getUuid();
            UUID session = UUID.randomUUID();
            byte[] answer = attacker.getExecutorService(HazelcastConfigs.FETCHES).submitToMember(new HandshakeCall(
                    new Handshake.Challenge(session, self, target.getUuid(), Handshake.nonce()).encode()),
                    target).get(30, TimeUnit.SECONDS);
            assertThat(answer).as("a worker answers a challenge (it proves nothing replayable)").isNotNull();
            byte[] verdict = new Handshake.Verdict(session, self, Handshake.response(answer).nonce(), true, "",
                    new byte[FrameCodec.MAC_BYTES]).encode();
            assertThat(attacker.getExecutorService(HazelcastConfigs.FETCHES)
                    .submitToMember(new HandshakeCall(verdict), target).get(30, TimeUnit.SECONDS)).isNull();
        }
        // the workers keep the real coordinator: results reach it, none reach the attacker
        ClusterFuture<Integer> x = coordinator.client().submit("takeover-x", in -> 20);
        ClusterFuture<Integer> y = coordinator.client().submit("takeover-y", in -> (Integer) in.get(0) + 1, x);
        assertThat(y.get(60, TimeUnit.SECONDS)).isEqualTo(21);
        assertThat(received.get()).as("Spindle tasks that reached the attacker").isZero();
        assertThat(coordinator.isLost(0) || coordinator.isLost(1)).isFalse();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.securityStats().refusedCoordinators() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(coordinator.securityStats().refusedCoordinators()).as("the second coordinator, once").isEqualTo(1);
        for (HazelcastWorker w : workers) {
            assertThat(w.securityStats().refusedCoordinators()).as("worker %d", w.id()).isEqualTo(1);
        }
    }

    @Test
    void replayedFramesAreRejectedAndCountedWithinAndAcrossSessions() throws Exception {
        FrameCodec codec = new FrameCodec(SECRET.getBytes(StandardCharsets.UTF_8), List.of());
        Member target = coordinator.instance().getCluster().getLocalMember();
        UUID session = coordinator.session().id();
        // a correctly signed frame of this session (as if captured from worker 0) and one of an
        // earlier session of the same secret; each is delivered by the attacker's member
        // (sequence number 1 of worker 0 is its answer to the coordinator's list of workers)
        byte[] current = codec.seal(new Wire.Frame(session, 0, coordinator.incarnation(0), Wire.COORDINATOR, 1,
                new Message.DataAdded(0, "replay-unknown-key")));
        byte[] earlier = codec.seal(new Wire.Frame(UUID.randomUUID(), 0, coordinator.incarnation(0), Wire.COORDINATOR, 1,
                new Message.DataAdded(0, "replay-unknown-key")));
        long before = coordinator.securityStats().replays();
        for (byte[] f : List.of(current, current, current, earlier, earlier)) {
            attacker.getExecutorService(HazelcastConfigs.MESSAGES).executeOnMember(new Deliver(f), target);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.securityStats().replays() < before + 5 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(200);                    // nothing more may be counted
        assertThat(coordinator.securityStats().replays()).as("3 repeats in the session, 2 of another session")
                .isEqualTo(before + 5);
        // the coordinator still works with its real workers
        assertThat(coordinator.client().submit("replay-after", in -> 5).get(60, TimeUnit.SECONDS)).isEqualTo(5);
    }

    @Test
    void aDeserialisationBombIsRefusedAtOnce() {
        Set<Object> bomb = HostilePayloads.hashBomb(40);
        Member target = workers.get(0).instanceForTests().getCluster().getLocalMember();
        Callable<Integer> task = (Callable<Integer> & Serializable) () -> bomb.size();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> attacker.getExecutorService("any").submitToMember(task, target)
                        .get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasMessageContaining("not allowed"));
        assertThat(workers.get(0).isRunning()).isTrue();
    }

    @Test
    void aHugeDeclaredLengthIsRefusedBeforeAllocation() throws Exception {
        HazelcastWorker victim = workers.get(1);
        Member target = victim.instanceForTests().getCluster().getLocalMember();
        long before = victim.securityStats().oversizedFrames();
        attacker.getExecutorService(HazelcastConfigs.MESSAGES).executeOnMember(new DeclaredFrame(Integer.MAX_VALUE - 8), target);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (victim.securityStats().oversizedFrames() == before && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(victim.securityStats().oversizedFrames()).isEqualTo(before + 1);
        assertThat(victim.isRunning()).isTrue();
    }

    /**
     * Spindle's Deliver task as an attacker writes it: a declared frame length and then other
     * bytes, none by default (18 bytes on the wire, whatever it declares).
     */
    static final class DeclaredFrame implements IdentifiedDataSerializable, Runnable {
        private final int declared;
        private final byte[] carried;

        DeclaredFrame(int declared) {
            this(declared, new byte[0]);
        }

        DeclaredFrame(int declared, byte[] carried) {
            this.declared = declared;
            this.carried = carried;
        }

        @Override
        public int getFactoryId() {
            return SpindleSerializables.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return SpindleSerializables.DELIVER;
        }

        @Override
        public void writeData(ObjectDataOutput out) throws java.io.IOException {
            out.writeInt(declared);
            out.write(carried);
        }

        @Override
        public void readData(ObjectDataInput in) {
        }

        @Override
        public void run() {
        }
    }

    @Test
    void aHazelcastClientCannotConnect() {
        ClientConfig config = new ClientConfig().setClusterName(cluster);
        config.setProperty("hazelcast.logging.type", "none");
        config.getNetworkConfig().addAddress("127.0.0.1:" + ports[1], "127.0.0.1:" + ports[0]);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(3000);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                assertThatThrownBy(() -> HazelcastClient.newHazelcastClient(config).shutdown())
                        .isInstanceOf(IllegalStateException.class));
    }
}
