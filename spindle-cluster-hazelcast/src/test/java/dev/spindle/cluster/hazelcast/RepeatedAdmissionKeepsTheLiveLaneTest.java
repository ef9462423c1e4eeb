/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that proves a new id as the coordinator's start-up ends is admitted twice over: by
 * its proof, and by the start-up's look at the proven workers, each on a thread of its own, and
 * the second may reach the transport after the scheduler has begun to send to the worker. That
 * admission must not forget the live process's lane: forgotten, every later message to the worker
 * was dropped at its send, and its tasks never ran nor were placed again. Driven by hand: a fake
 * Hazelcast instance takes what is sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RepeatedAdmissionKeepsTheLiveLaneTest {

    private static final byte[] SECRET = "repeated-admission-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final List<String> frames = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aSecondAdmissionOfTheAddressedProcessLosesNoLaterMessage() throws Exception {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        CoordinatorTransport transport = new CoordinatorTransport(codec, roster, session,
                HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember") || name.equals("executeOnMember")) {
                frames.add(name);
            }
        }), null), scheduler::add);
        Member process = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        assertThat(roster.prove(1, process, Incarnations.newIncarnation())).isEqualTo(Incarnations.Proof.NEW);

        transport.admitting(1);               // its admission
        transport.toWorker(1, new Message.ReleaseKey("a", 1));
        transport.flush();
        FakeInstances.drainSender(transport);
        assertThat(frames).as("the first frame to the worker").hasSize(1);

        transport.admitting(1);               // the same process admitted again, late
        for (int i = 2; i <= 3; i++) {
            transport.toWorker(1, new Message.ReleaseKey("k" + i, i));
            transport.flush();
            FakeInstances.drainSender(transport);
        }

        assertThat(frames).as("frames to the live worker after its second admission").hasSize(3);
        assertThat(scheduler).as("nobody lost").isEmpty();
    }
}
