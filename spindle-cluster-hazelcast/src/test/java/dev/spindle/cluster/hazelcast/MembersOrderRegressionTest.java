/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.WorkerNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two late joins at once: the coordinator probes every worker with its list of workers twice, and
 * the worker handles the probes on several threads of the fetch executor, so the older list may be
 * adopted after the newer one. Adopted, it took an id that had rejoined back to its old member and
 * incarnation (whose member was still in the view: a retired worker's, not stopped yet), and the
 * worker refused the new process's fetches until another join. A list older than one adopted in
 * the session is now not adopted. Driven by hand (failed before the fix).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MembersOrderRegressionTest {

    private static final byte[] SECRET = "members-order-regression-0123".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("worker 0"));
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster,
            HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
    private final WorkerNode node = new WorkerNode(0, 1, transport);

    @AfterEach
    void stop() {
        node.close();
        transport.close();
    }

    @Test
    void anOlderListHandledAfterANewerOneDoesNotTakeARejoinedIdBack() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Member retired = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Member successor = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Set<Member> view = new CopyOnWriteArraySet<>(List.of(me, coordinator, retired, successor));
        transport.attach(node, FakeInstances.instance(FakeInstances.executor((name, args) -> { }),
                FakeInstances.cluster(me, view)));

        // the coordinator proves itself to worker 0, which joins its session
        UUID s = UUID.randomUUID();
        byte[] nc = Handshake.nonce();
        Handshake.Response r = Handshake.response(transport.onHandshake(
                new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
        byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), 0,
                r.incarnation(), Handshake.ACCEPTED, "");
        assertThat(transport.onHandshake(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(), Handshake.ACCEPTED,
                "", mac).encode())).isEmpty();
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("coordinator"));
        session.join(s);

        // worker 1's first process, then (retired, and rejoined by a new process) its successor:
        // the coordinator's two lists, sent in that order
        long first = Incarnations.newIncarnation();
        long second = Incarnations.newIncarnation();
        byte[] older = codec.seal(session.frame(0, r.incarnation(), new Wire.Members(
                Map.of(0, me.getUuid(), 1, retired.getUuid()), Map.of(0, r.incarnation(), 1, first))));
        byte[] newer = codec.seal(session.frame(0, r.incarnation(), new Wire.Members(
                Map.of(0, me.getUuid(), 1, successor.getUuid()), Map.of(0, r.incarnation(), 1, second))));

        // handled out of order, on two threads of the fetch executor
        assertThat(transport.onFetch(newer)).isNotNull();
        transport.onFetch(older);

        assertThat(roster.worker(1)).as("worker 1's member").isSameAs(successor);
        assertThat(roster.incarnation(1)).as("worker 1's incarnation").isEqualTo(second);
    }
}
