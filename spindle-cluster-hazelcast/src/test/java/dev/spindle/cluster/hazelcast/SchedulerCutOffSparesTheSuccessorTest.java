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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler cuts a worker off by id ({@code workerLost} after a send to it threw,
 * {@code retired} once it has retired it), and it means the process it addressed as that worker.
 * By the time it does, that process may have been lost already (its member left) and a new
 * process proved the id (at once, when its claim waited for the loss): the cut-off must not lose
 * that successor, whose incarnation would then be spent for good, and which would never be
 * admitted. Driven by hand: a fake Hazelcast instance records what is sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerCutOffSparesTheSuccessorTest {

    private static final byte[] SECRET = "cut-off-successor-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final List<Member> sentTo = Collections.synchronizedList(new ArrayList<>());
    private final Member old = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private final Member successor = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private CoordinatorTransport transport;

    @BeforeEach
    void start() throws Exception {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        transport = new CoordinatorTransport(codec, roster, session, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember")) {
                sentTo.add((Member) args[1]);
            }
        }), null), scheduler::add);
        assertThat(roster.prove(1, old, Incarnations.newIncarnation())).isEqualTo(Incarnations.Proof.NEW);
        transport.toWorker(1, new Message.ReleaseKey("k", 1));   // the scheduler addresses the old process
        transport.flush();
        FakeInstances.drainSender(transport);
        assertThat(sentTo).containsExactly(old);
    }

    @Test
    void aCutOffForTheLostProcessDoesNotLoseTheSuccessorThatProvedItsId() {
        rejoin();
        transport.workerLost(1);              // the scheduler's send to the old process threw

        assertThat(roster.worker(1)).as("the successor still holds the id").isSameAs(successor);
        assertThat(scheduler).as("one loss reported, the old process's").containsOnlyOnce(new Message.WorkerLost(1));
    }

    @Test
    void aCutOffForTheLostProcessAfterTheSuccessorsAdmissionStartedDoesNotLoseIt() {
        rejoin();
        transport.admitting(1);               // the scheduler's own handling of the loss let the successor in
        transport.workerLost(1);              // then its thread goes on to cut off the process it knew

        assertThat(roster.worker(1)).as("the successor still holds the id").isSameAs(successor);
    }

    @Test
    void aCutOffOfTheProcessTheSchedulerAddressesLosesIt() {
        transport.workerLost(1);

        assertThat(roster.worker(1)).isNull();
        assertThat(scheduler).contains(new Message.WorkerLost(1));
    }

    @Test
    void retiringTheLostProcessDoesNotLoseTheSuccessorThatProvedItsId() {
        rejoin();
        // the scheduler, which has not handled the loss yet, completes the old process's retirement
        transport.toWorker(1, new Message.Retired(1));
        transport.retired(1);

        assertThat(roster.worker(1)).as("the successor still holds the id").isSameAs(successor);
    }

    /** Worker 1's member leaves and its restarted process, whose claim waited, proves the id at once. */
    private void rejoin() {
        roster.memberRemoved(FakeInstances.removed(old, Set.of(successor)));
        assertThat(scheduler).contains(new Message.WorkerLost(1));
        assertThat(roster.prove(1, successor, Incarnations.newIncarnation())).isEqualTo(Incarnations.Proof.REJOINED);
    }
}
