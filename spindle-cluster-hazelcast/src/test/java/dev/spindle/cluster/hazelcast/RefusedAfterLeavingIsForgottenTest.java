/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.MemberLeftException;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An attacker's member without the secret, announcing itself as a worker, answers the
 * coordinator's challenge with a proof it cannot make, holds the verdict call and leaves. The
 * removal is handled first (the roster forgets its offences, Admission its settled mark), then
 * its refusal lands: the coordinator remembered the departed member as settled, and as an
 * offender, for good. A process that joins and leaves again and again grew the coordinator's
 * memory by one entry each time. Driven by hand: a fake Hazelcast instance hands over the calls.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RefusedAfterLeavingIsForgottenTest {

    private static final byte[] SECRET = "refused-leaving-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    private record Call(byte[] message, Member to, ExecutionCallback<byte[]> callback) {
    }

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    private final Set<Member> members = ConcurrentHashMap.newKeySet();
    private final Member coordinatorMember = FakeInstances.member(true);
    private final Member intruder = FakeInstances.member(false);
    private final Cluster cluster = cluster(coordinatorMember);
    private Admission admission;

    @AfterEach
    void stop() {
        if (admission != null) {
            admission.close();
        }
    }

    @Test
    void aMemberRefusedAfterItLeftIsNotRememberedForGood() throws Exception {
        members.add(coordinatorMember);
        members.add(intruder);
        Roster roster = new Roster(new Offences("coordinator"));
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        admission = new Admission(codec, roster, session, instance(), 1);

        admission.admitAll();
        Call challenge = calls.poll(10, TimeUnit.SECONDS);
        assertThat(challenge).as("the challenge").isNotNull();
        // the intruder cannot sign: any MAC will do
        byte[] answer = new Handshake.Response(0, 42, intruder.getUuid(), Handshake.nonce(),
                new byte[FrameCodec.MAC_BYTES]).encode();
        challenge.callback().onResponse(answer);
        Call verdict = calls.poll(10, TimeUnit.SECONDS);
        assertThat(verdict).as("the refusing verdict").isNotNull();

        // it leaves with the verdict call unanswered: the removal is handled before the call fails
        members.remove(intruder);
        MembershipEvent left = new MembershipEvent(cluster, intruder, MembershipEvent.MEMBER_REMOVED,
                Set.of(coordinatorMember));
        roster.memberRemoved(left);
        admission.memberRemoved(left);
        verdict.callback().onFailure(new MemberLeftException(intruder));
        drainAdmission();

        assertThat(roster.refused()).as("the intruder refused").isEqualTo(1);
        assertThat(settled()).as("members Admission remembers as settled").doesNotContain(intruder.getUuid());
        assertThat(roster.offences().record(Offences.Kind.REFUSED_MEMBER, intruder.getUuid(), "again"))
                .as("the departed intruder forgotten as an offender").isTrue();
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

    private Cluster cluster(Member local) {
        return (Cluster) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Cluster.class},
                (p, method, args) -> switch (method.getName()) {
                    case "getMembers" -> Set.copyOf(members);
                    case "getLocalMember" -> local;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    case "toString" -> "cluster";
                    default -> null;
                });
    }

    @SuppressWarnings("unchecked")
    private HazelcastInstance instance() {
        return FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember") && args.length == 3) {
                calls.add(new Call(((HandshakeCall) args[0]).frame, (Member) args[1],
                        (ExecutionCallback<byte[]>) args[2]));
            }
        }), cluster);
    }
}
