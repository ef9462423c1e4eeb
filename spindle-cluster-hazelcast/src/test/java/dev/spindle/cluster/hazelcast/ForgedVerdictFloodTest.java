/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process without the secret sends a worker challenges and unsigned verdicts, each pair naming
 * a coordinator UUID of its own choosing, a fresh one each time (nothing in a challenge or an
 * unproven verdict is signed, and no member of the cluster has that UUID). The worker took each
 * UUID for an offender of its own: each pair counted one more refused coordinator and logged one
 * more line, so that one process made the operator's statistics read thousands of members and
 * wrote to the log as fast as it sent (SecurityStats promises each member counted once, and the
 * README each offender logged once, however often it retries).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForgedVerdictFloodTest {

    private static final byte[] SECRET = "forged-verdict-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final int FORGED = 200;

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
    private final Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private final Member intruder = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private final Roster roster = new Roster(new Offences("worker 0"));
    private final Enrolment enrolment = new Enrolment(0, codec, roster,
            new Session(0, Incarnations.newIncarnation(), roster.offences()), () -> { });

    @Test
    void unsignedVerdictsNamingMadeUpCoordinatorsCountAsOneOffender() {
        enrolment.attach(FakeInstances.cluster(me, Set.of(me, coordinator, intruder)));
        for (int i = 0; i < FORGED; i++) {
            forge(UUID.randomUUID());
        }
        assertThat(roster.coordinator()).isNull();
        assertThat(SecurityStats.of(roster.offences()).refusedCoordinators())
                .as("coordinator claims refused, all from one process naming no member").isEqualTo(1);
    }

    @Test
    void secondCoordinatorClaimsNamingMadeUpMembersCountAsOneOffender() {
        enrolment.attach(FakeInstances.cluster(me, Set.of(me, coordinator, intruder)));
        RealCoordinator.adopt(enrolment, codec, me, coordinator);
        assertThat(roster.coordinator()).isSameAs(coordinator);
        for (int i = 0; i < FORGED; i++) {
            forge(UUID.randomUUID());
        }
        assertThat(roster.coordinator()).isSameAs(coordinator);
        assertThat(SecurityStats.of(roster.offences()).refusedCoordinators())
                .as("second-coordinator claims, all from one process naming no member").isEqualTo(1);
    }

    /** A challenge naming {@code claimed} as coordinator, then an unsigned verdict answering it. */
    private void forge(UUID claimed) {
        UUID session = UUID.randomUUID();
        Handshake.Response r = Handshake.response(enrolment.onMessage(
                new Handshake.Challenge(session, claimed, me.getUuid(), Handshake.nonce()).encode()));
        assertThat(r).isNotNull();
        enrolment.onMessage(new Handshake.Verdict(session, claimed, r.nonce(), Handshake.ACCEPTED, "",
                new byte[FrameCodec.MAC_BYTES]).encode());
    }

    /** The real coordinator's handshake with this worker, which adopts it. */
    private static final class RealCoordinator {
        static void adopt(Enrolment enrolment, FrameCodec codec, Member me, Member coordinator) {
            UUID s = UUID.randomUUID();
            byte[] nc = Handshake.nonce();
            Handshake.Response r = Handshake.response(enrolment.onMessage(
                    new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
            byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), 0,
                    r.incarnation(), Handshake.ACCEPTED, "");
            enrolment.onMessage(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(), Handshake.ACCEPTED, "", mac)
                    .encode());
        }
    }
}
