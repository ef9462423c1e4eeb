/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.WorkerNode;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * A {@link WorkerTransport} enrolled with a fake coordinator (the handshake answered and accepted),
 * for tests that hand it frames directly: the coordinator's session, another worker's in the same
 * cluster session, and the incarnation the worker was accepted with.
 */
record EnrolledWorker(Session coordinator, Session otherWorker, long incarnation) {

    static EnrolledWorker enrol(WorkerTransport transport, WorkerNode node, FrameCodec codec) {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Set<Member> view = new CopyOnWriteArraySet<>(List.of(me, coordinator));
        transport.attach(node, FakeInstances.instance(FakeInstances.executor((name, args) -> { }),
                FakeInstances.cluster(me, view)));
        UUID s = UUID.randomUUID();
        byte[] nc = Handshake.nonce();
        Handshake.Response r = Handshake.response(transport.onHandshake(
                new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
        byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), 0,
                r.incarnation(), Handshake.ACCEPTED, "");
        assertThat(transport.onHandshake(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(),
                Handshake.ACCEPTED, "", mac).encode())).isEmpty();
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("coordinator"));
        session.join(s);
        Session otherWorker = new Session(1, 7L, new Offences("worker 1"));
        otherWorker.join(s);
        return new EnrolledWorker(session, otherWorker, r.incarnation());
    }
}
