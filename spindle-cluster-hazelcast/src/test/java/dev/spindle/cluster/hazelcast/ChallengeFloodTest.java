/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A party without the secret floods a worker with challenges (nothing in a challenge is signed)
 * between the real coordinator's challenge and its verdict.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChallengeFloodTest {

    private static final String SECRET = "flood-test-secret-0123456789";

    /**
     * The worker kept at most 64 open challenges and pushed out the oldest: 64 forged challenges
     * pushed out the coordinator's, whose verdict then found nothing to answer, so a genuine
     * worker could not join for as long as the flood went on.
     */
    @Test
    void forgedChallengesDoNotPushOutTheCoordinatorsOwn() {
        FrameCodec codec = new FrameCodec(SECRET.getBytes(StandardCharsets.UTF_8), List.of());
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Roster roster = new Roster(new Offences("worker 0"));
        Session session = new Session(0, dev.spindle.cluster.Incarnations.newIncarnation(), roster.offences());
        AtomicInteger adopted = new AtomicInteger();
        Enrolment enrolment = new Enrolment(0, codec, roster, session, adopted::incrementAndGet);
        enrolment.attach(FakeInstances.cluster(me, Set.of(me, coordinator)));

        UUID s = UUID.randomUUID();
        byte[] nc = Handshake.nonce();
        Handshake.Response r = Handshake.response(enrolment.onMessage(
                new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
        assertThat(r).isNotNull();
        for (int i = 0; i < 1_000; i++) {
            // forged: naming the coordinator and its session, as anyone can
            enrolment.onMessage(new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), Handshake.nonce())
                    .encode());
        }
        byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), r.worker(),
                r.incarnation(), Handshake.ACCEPTED, "");
        byte[] answer = enrolment.onMessage(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(),
                Handshake.ACCEPTED, "", mac).encode());

        assertThat(answer).as("the worker's answer to the real verdict").isNotNull().isEmpty();
        assertThat(roster.coordinator()).as("coordinator adopted").isSameAs(coordinator);
        assertThat(adopted).hasValue(1);
        // and a replay of the verdict it answered finds nothing
        assertThat(enrolment.onMessage(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(),
                Handshake.ACCEPTED, "", mac).encode())).isNull();
        assertThat(adopted).hasValue(1);
    }
}
