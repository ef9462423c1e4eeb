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
import dev.spindle.cluster.Incarnations;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found by review (session 41), failing before the fix. The coordinator proves a worker from its answer to the challenge without looking at
 * whether the member is still in the cluster. A worker member that answers and then leaves before
 * Admission's thread has judged the answer (it crashed, or gave up waiting and exited) is removed
 * while it holds no id, so the roster's membership listener finds nothing to lose; then it is
 * proven. Its id stays live with nobody behind it for good: the loss is never reported, and a
 * restarted process under that id is told that its claim waits, for ever. Driven by hand: a fake
 * Hazelcast instance hands over the handshake calls.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProvenAfterLeavingRegressionTest {

    private static final byte[] SECRET = "proven-leaving-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    private record Call(byte[] message, Member to, ExecutionCallback<byte[]> callback) {
    }

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    private final Set<Member> members = ConcurrentHashMap.newKeySet();
    private final Member coordinatorMember = FakeInstances.member(true);
    private final Member workerMember = FakeInstances.member(false);
    private final Cluster cluster = cluster(coordinatorMember);
    private Admission admission;

    @AfterEach
    void stop() {
        if (admission != null) {
            admission.close();
        }
    }

    @Test
    void aWorkerThatLeavesAfterAnsweringTheChallengeIsNotLeftHoldingItsIdForGood() throws Exception {
        members.add(coordinatorMember);
        members.add(workerMember);
        Roster roster = new Roster(new Offences("coordinator"));
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        admission = new Admission(codec, roster, session, instance(), 1);
        CountDownLatch proven = new CountDownLatch(1);
        admission.onProven((proof, id) -> proven.countDown());
        // the worker's side of the handshake, as worker 0 of its own member
        Enrolment worker = new Enrolment(0, codec, new Roster(new Offences("worker")),
                new Session(0, Incarnations.newIncarnation(), new Offences("worker session")), () -> { });
        worker.attach(cluster(workerMember));

        admission.admitAll();
        Call challenge = calls.poll(10, TimeUnit.SECONDS);
        assertThat(challenge).as("the challenge").isNotNull();
        byte[] answer = worker.onMessage(challenge.message());
        assertThat(answer).isNotNull();

        // the worker member leaves with its answer on the way: removed before it holds an id
        members.remove(workerMember);
        MembershipEvent left = new MembershipEvent(cluster, workerMember, MembershipEvent.MEMBER_REMOVED,
                Set.of(coordinatorMember));
        roster.memberRemoved(left);
        admission.memberRemoved(left);
        challenge.callback().onResponse(answer);

        Call verdict = calls.poll(10, TimeUnit.SECONDS);
        assertThat(verdict).as("the verdict").isNotNull();
        verdict.callback().onFailure(new IllegalStateException("member left"));
        assertThat(proven.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(roster.worker(0)).as("worker 0's member, which left the cluster").isNull();
        assertThat(roster.isLost(0)).as("its loss reported").isTrue();
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
                calls.add(new Call(((HandshakeCall) args[0]).frame, (Member) args[1], (ExecutionCallback<byte[]>) args[2]));
            }
        }), cluster);
    }
}
