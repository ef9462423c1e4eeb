/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Handshake steps a process without the secret could use against a worker, found in a review:
 * each test failed on the code before its fix
 * (docs/measurements/2026-11-29-s24/transport-regressions-before-after.txt).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HandshakeRegressionTest {

    private static final String SECRET = "review-test-secret-0123456789";
    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    /**
     * A plain Hazelcast member without the secret challenges a worker that has no coordinator yet,
     * naming itself as coordinator, then sends a verdict it cannot sign. The worker takes that as
     * "the coordinator's secret differs" and gives up: awaitCoordinator throws (WorkerMain exits 1)
     * even though the real coordinator, with the right secret, admits it.
     */
    @Test
    void anUnsignedVerdictFromAnImpostorDoesNotMakeAWorkerGiveUp() throws Exception {
        int[] ports = FreePorts.free(3);
        String cluster = "spindle-review-" + ports[0];
        HazelcastWorker worker = HazelcastWorker.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 1);
        started.add(worker);
        HazelcastInstance intruder = Intruder.join(cluster, ports[2], ports, Map.of(), null);
        started.add(intruder::shutdown);
        Member target = worker.instanceForTests().getCluster().getLocalMember();
        UUID self = intruder.getCluster().getLocalMember().getUuid();
        UUID session = UUID.randomUUID();
        byte[] answer = intruder.getExecutorService(HazelcastConfigs.FETCHES).submitToMember(new HandshakeCall(
                new Handshake.Challenge(session, self, target.getUuid(), Handshake.nonce()).encode()), target)
                .get(30, TimeUnit.SECONDS);
        assertThat(answer).isNotNull();
        // an unsigned verdict answering the worker's own response (its nonce is in the answer)
        byte[] verdict = new Handshake.Verdict(session, self, Handshake.response(answer).nonce(), true, "",
                new byte[FrameCodec.MAC_BYTES]).encode();
        intruder.getExecutorService(HazelcastConfigs.FETCHES).submitToMember(new HandshakeCall(verdict), target)
                .get(30, TimeUnit.SECONDS);

        HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60));
        started.add(coordinator);
        assertThatCode(() -> worker.awaitCoordinator(Duration.ofSeconds(30)))
                .as("the real coordinator proved the secret; the impostor's verdict must not decide")
                .doesNotThrowAnyException();
    }

    /**
     * While the real coordinator's handshake with a worker is in flight (challenge answered,
     * verdict not yet sent), a challenge from anyone that merely names the coordinator's UUID
     * replaces the worker's pending nonces; the real, correctly signed verdict then fails to
     * verify and the worker refuses itself.
     */
    @Test
    void aForgedChallengeNamingTheCoordinatorDoesNotSpoilItsHandshake() {
        FrameCodec codec = new FrameCodec(SECRET.getBytes(StandardCharsets.UTF_8), List.of());
        Member me = member(UUID.randomUUID(), true);
        Member coordinator = member(UUID.randomUUID(), false);
        Roster roster = new Roster(new Offences("worker 0"));
        long incarnation = dev.spindle.cluster.Incarnations.newIncarnation();
        Session session = new Session(0, incarnation, roster.offences());
        AtomicInteger adopted = new AtomicInteger();
        Enrolment enrolment = new Enrolment(0, codec, roster, session, adopted::incrementAndGet);
        enrolment.attach(FakeInstances.cluster(me, Set.of(me, coordinator)));

        UUID s = UUID.randomUUID();
        byte[] nc = Handshake.nonce();
        Handshake.Response r = Handshake.response(enrolment.onMessage(
                new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
        assertThat(r).isNotNull();
        // the intruder: a challenge that names the coordinator (nothing authenticates who sent it)
        enrolment.onMessage(new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), Handshake.nonce()).encode());
        // the real coordinator's verdict, correctly signed over its own challenge and the worker's answer
        byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), r.worker(),
                r.incarnation(), Handshake.ACCEPTED, "");
        enrolment.onMessage(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(), Handshake.ACCEPTED, "", mac)
                .encode());

        assertThat(roster.refusal()).as("refusal").isNull();
        assertThat(roster.coordinator()).as("coordinator adopted").isSameAs(coordinator);
    }

    /** A member that answers its UUID and whether it is local, for tests below the cluster (also the wire review's). */
    static Member member(UUID uuid, boolean local) {
        return (Member) Proxy.newProxyInstance(Member.class.getClassLoader(), new Class<?>[] {Member.class},
                (p, m, a) -> switch (m.getName()) {
                    case "getUuid" -> uuid;
                    case "localMember" -> local;
                    case "hashCode" -> uuid.hashCode();
                    case "equals" -> p == a[0];
                    case "toString" -> "member " + uuid;
                    default -> null;
                });
    }
}
