/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found by review (session 41), failing before the fix. The coordinator's transport addresses the scheduler's messages by worker id only, and
 * resolves the id's member and incarnation when the batch is sent. Nothing discards what was
 * queued for a worker whose member left (the Hazelcast transport's {@code workerLost} is never
 * called: membership reports the loss straight to the scheduler), and the scheduler keeps
 * addressing the lost process until it has handled the loss. A new process that proves the id
 * meanwhile (at once, when its claim was waiting for the loss) is sent its predecessor's
 * messages, sealed for its own incarnation, and accepts them: a predecessor's numbered
 * {@code ReleaseKey}, say, makes it drop the scheduler's first task of that key for good.
 * Driven by hand: a fake Hazelcast instance records what is sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RejoinFencingRegressionTest {

    private static final byte[] SECRET = "rejoin-fencing-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final Member old = member();
    private final Member successor = member();
    private final long oldIncarnation = Incarnations.newIncarnation();
    private final long newIncarnation = Incarnations.newIncarnation();
    private CoordinatorTransport transport;

    private record Sent(Member to, Wire.Frame frame) {
    }

    @BeforeEach
    void start() {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        transport = new CoordinatorTransport(codec, roster, session, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(instance(), scheduler::add);
        assertThat(roster.prove(1, old, oldIncarnation)).isEqualTo(Incarnations.Proof.NEW);
    }

    @Test
    void aMessageQueuedForALostWorkerIsNotSentToTheProcessThatRejoinsUnderItsId() throws Exception {
        transport.toWorker(1, new Message.ReleaseKey("k", 1));   // queued by the scheduler, not flushed yet

        roster.memberRemoved(FakeInstances.removed(old, Set.of(successor)));   // worker 1's member leaves
        assertThat(scheduler).contains(new Message.WorkerLost(1));
        // its restarted process, whose claim waited for the loss, proves the id at once
        assertThat(roster.prove(1, successor, newIncarnation)).isEqualTo(Incarnations.Proof.REJOINED);

        transport.flush();                    // the scheduler's next flush
        FakeInstances.drainSender(transport);

        assertThat(framesTo(successor)).as("the predecessor's release sent to its successor, sealed for it").isEmpty();
    }

    @Test
    void aMessageTheSchedulerSendsBeforeItHasHandledTheLossIsNotSentToTheSuccessor() throws Exception {
        roster.memberRemoved(FakeInstances.removed(old, Set.of(successor)));
        assertThat(roster.prove(1, successor, newIncarnation)).isEqualTo(Incarnations.Proof.REJOINED);
        // the scheduler has not reached WorkerLost(1) in its inbox yet: for it, worker 1 is the old
        // process, which it still gives work and releases
        transport.toWorker(1, new Message.ReleaseKey("k", 7));
        transport.flush();
        FakeInstances.drainSender(transport);

        assertThat(framesTo(successor)).as("a message for the lost process sent to its successor").isEmpty();
    }

    /** What reached the successor that its session accepts (addressed to its incarnation). */
    private List<Wire.Frame> framesTo(Member m) {
        Session successorSession = new Session(1, newIncarnation, new Offences("successor"));
        List<Wire.Frame> out = new ArrayList<>();
        synchronized (sent) {
            for (Sent s : sent) {
                if (s.to() == m && successorSession.join(s.frame().session())
                        && successorSession.accept(s.frame(), Wire.COORDINATOR_INCARNATION)) {
                    out.add(s.frame());
                }
            }
        }
        return out;
    }



    private static Member member() {
        return HandshakeRegressionTest.member(UUID.randomUUID(), false);
    }

    private HazelcastInstance instance() {
        return FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember")) {
                sent.add(new Sent((Member) args[1], codec.open(((Deliver) args[0]).frame)));
            }
        }), null);
    }
}
