/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A member that joined posing as a worker, running other code, answers the coordinator's
 * handshake call with something that is not a {@code byte[]} (it chooses the type of its answer).
 * The callback was typed {@code ExecutionCallback<byte[]>}, so its cast threw a
 * {@link ClassCastException} on Hazelcast's thread, the answer was never taken, and the step ended
 * only at its {@value Admission#STEP_MILLIS} ms timeout as if the member had not answered: the
 * member was challenged again and again, never refused nor counted. Now an answer to the challenge
 * of another type refuses the member at once (Spindle's own code answers only with bytes), and one
 * to the verdict ends the try at once, as no answer does. Driven by hand: a fake Hazelcast
 * instance hands over the calls, whose callbacks are called as Hazelcast calls them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandshakeAnsweredWithAnotherTypeTest {

    private static final byte[] SECRET = "answer-type-secret-0123456789abc".getBytes(StandardCharsets.UTF_8);

    private record Call(byte[] message, Member to, ExecutionCallback<Object> callback) {
    }

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    private final Member coordinatorMember = FakeInstances.member(true);
    private final Member intruder = FakeInstances.member(false);
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION,
            new Offences("session"));
    private Admission admission;

    @AfterEach
    void stop() {
        if (admission != null) {
            admission.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"string", "integer", "deliver"})
    void aChallengeAnsweredWithAnotherTypeRefusesTheMemberAtOnce(String kind) throws Exception {
        start();
        Call challenge = calls.poll(10, TimeUnit.SECONDS);
        assertThat(challenge).as("the challenge").isNotNull();

        Object answer = switch (kind) {
            case "string" -> "not a response";
            case "integer" -> 42;
            default -> new Deliver(new byte[] {1, 2, 3});
        };
        assertThatCode(() -> challenge.callback().onResponse(answer))
                .as("the callback, on Hazelcast's thread, answered with a " + kind).doesNotThrowAnyException();
        drainAdmission();

        assertThat(roster.refused()).as("members refused").isEqualTo(1);
        assertThat(roster.offences().count(Offences.Kind.REFUSED_MEMBER)).isEqualTo(1);
        assertThat(settled()).as("settled: never challenged again").contains(intruder.getUuid());
        assertThat(inFlight()).as("handshakes in flight").isEmpty();
        assertThat(calls).as("no verdict sent").isEmpty();
    }

    @Test
    void aVerdictAnsweredWithAnotherTypeEndsTheTryAtOnce() throws Exception {
        start();
        Call challenge = calls.poll(10, TimeUnit.SECONDS);
        assertThat(challenge).as("the challenge").isNotNull();
        // a member with the secret (played here with the codec) proves worker id 0
        Handshake.Challenge c = Handshake.challenge(challenge.message());
        byte[] nw = Handshake.nonce();
        long incarnation = dev.spindle.cluster.Incarnations.newIncarnation();
        byte[] mac = Handshake.workerMac(codec, c.session(), c.coordinator(), intruder.getUuid(), c.nonce(), nw, 0,
                incarnation);
        challenge.callback().onResponse(new Handshake.Response(0, incarnation, intruder.getUuid(), nw, mac).encode());
        Call verdict = calls.poll(10, TimeUnit.SECONDS);
        assertThat(verdict).as("the verdict").isNotNull();

        assertThatCode(() -> verdict.callback().onResponse("not an adoption"))
                .as("the callback, on Hazelcast's thread").doesNotThrowAnyException();
        drainAdmission();

        assertThat(inFlight()).as("handshakes in flight").isEmpty();
        assertThat(settled()).as("not settled: asked again").doesNotContain(intruder.getUuid());
        admission.admitAll();
        assertThat(calls.poll(10, TimeUnit.SECONDS)).as("the next try's challenge").isNotNull();
    }

    private void start() {
        session.join(UUID.randomUUID());
        admission = new Admission(codec, roster, session, instance(), 1);
        admission.admitAll();
    }

    /** Waits until Admission's thread has run every step handed to it so far. */
    private void drainAdmission() throws Exception {
        Field f = Admission.class.getDeclaredField("steps");
        f.setAccessible(true);
        ExecutorService steps = (ExecutorService) f.get(admission);
        for (int i = 0; i < 3; i++) {       // a step may hand on one more
            steps.submit(() -> { }).get(10, TimeUnit.SECONDS);
        }
    }

    @SuppressWarnings("unchecked")
    private Set<UUID> settled() throws Exception {
        Field f = Admission.class.getDeclaredField("settled");
        f.setAccessible(true);
        return (Set<UUID>) f.get(admission);
    }

    private java.util.Map<?, ?> inFlight() throws Exception {
        Field f = Admission.class.getDeclaredField("inFlight");
        f.setAccessible(true);
        return (java.util.Map<?, ?>) f.get(admission);
    }

    @SuppressWarnings("unchecked")
    private HazelcastInstance instance() {
        Cluster cluster = FakeInstances.cluster(coordinatorMember, Set.of(coordinatorMember, intruder));
        return FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember") && args.length == 3) {
                calls.add(new Call(((HandshakeCall) args[0]).frame, (Member) args[1],
                        (ExecutionCallback<Object>) args[2]));
            }
        }), cluster);
    }
}
