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
 * The coordinator's probe tells every worker who the proven workers are, and a worker fetches
 * from, and serves, only those; the coordinator admits a worker that joined late (and, at start,
 * dispatches at all) only once every worker has answered it. But Hazelcast shows a new member in
 * one member's list before another's, and a worker skipped the listed workers its own list did not
 * show yet and answered all the same: the coordinator took it as ready, never asked again, and
 * that worker never learnt of the newcomer. Each fetch between the two then failed (refused by the
 * one, "not a live member" at the other), the scheduler dropped the holder's copy and computed the
 * value again, for as long as the session lasted. Driven by hand (found by review; failed before
 * the fix).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProbeAdoptsEveryWorkerTest {

    private static final byte[] SECRET = "probe-adopts-every-worker-0123".getBytes(StandardCharsets.UTF_8);

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
    void aWorkerThatCannotSeeAListedWorkerYetDoesNotAnswerTheProbeAsReady() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Member newcomer = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Set<Member> view = new CopyOnWriteArraySet<>(List.of(me, coordinator));   // the newcomer not shown yet
        transport.attach(node, FakeInstances.instance(FakeInstances.executor((name, args) -> { }), FakeInstances.cluster(me, view)));

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

        // worker 1 joined late and proved itself; the coordinator probes every worker with the new list
        Wire.Members members = new Wire.Members(Map.of(0, me.getUuid(), 1, newcomer.getUuid()),
                Map.of(0, r.incarnation(), 1, Incarnations.newIncarnation()));
        byte[] reply = transport.onFetch(codec.seal(session.frame(0, r.incarnation(), members)));
        assertThat(reply == null || roster.worker(1) != null)
                .as("answered the probe as ready without knowing worker 1: never asked again, it never will")
                .isTrue();

        // once its list shows the newcomer, the coordinator's next probe is answered, and the newcomer known
        view.add(newcomer);
        reply = transport.onFetch(codec.seal(session.frame(0, r.incarnation(), members)));
        assertThat(reply).isNotNull();
        assertThat(session.accept(codec.open(reply), r.incarnation())).isTrue();
        assertThat(roster.worker(1)).isSameAs(newcomer);
    }
}
