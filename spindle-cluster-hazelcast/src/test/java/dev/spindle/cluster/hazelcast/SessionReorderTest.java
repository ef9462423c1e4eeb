/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.WireMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A frame overtaken on its way by a later frame of the same sender to the same member, while
 * the sender sent a window's worth of frames to other members. Frames between two members
 * travel on several paths that do not keep their order (a worker's one message thread for the
 * coordinator's tasks, its fetch pool for the coordinator's probe and other workers' fetches, a
 * callback thread for the replies to its own fetches): the replay window is there to absorb
 * that. But the sender numbered its frames to every member in one sequence, so the window was
 * {@value ReplayWindow#WINDOW} frames of the sender's whole traffic, not of its traffic to this
 * member: a coordinator of many workers sends that many in a moment, and a task frame waiting
 * behind the worker's message thread was refused as a replay once the coordinator's probe (sent
 * when a worker joins late) had run on the fetch pool. The task was lost with nobody told, its
 * client's future waiting for good (found by review; failed before the fix).
 */
class SessionReorderTest {

    private static final UUID SESSION = UUID.randomUUID();
    private static final byte[] SECRET = "session-reorder-secret-0123".getBytes(StandardCharsets.UTF_8);

    @Test
    void aCoordinatorTaskFrameOvertakenByItsProbeIsAcceptedWhateverItSentOtherWorkersMeanwhile() {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        Session coordinator = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("c"));
        coordinator.join(SESSION);
        long incarnation = Incarnations.newIncarnation();
        Offences offences = new Offences("worker 2");
        Session worker = new Session(2, incarnation, offences);
        worker.join(SESSION);

        // a frame of tasks for worker 2, which waits behind that worker's message thread
        byte[] tasks = codec.seal(coordinator.frame(2, incarnation, new Message.ReleaseKey("k", 1)));
        // meanwhile the coordinator sends a window's worth of frames to its other workers
        for (int i = 0; i < ReplayWindow.WINDOW; i++) {
            coordinator.frame(3 + i % 7, Incarnations.newIncarnation(), new Message.ReleaseKey("k", 1));
        }
        // then the probe of a worker's late join, which worker 2's fetch pool runs at once
        byte[] probe = codec.seal(coordinator.frame(2, incarnation, new Wire.Members(Map.of(), Map.of())));

        assertThat(worker.accept(codec.open(probe), Wire.COORDINATOR_INCARNATION)).as("the probe").isTrue();
        assertThat(worker.accept(codec.open(tasks), Wire.COORDINATOR_INCARNATION))
                .as("the frame of tasks it overtook, never seen here").isTrue();
        assertThat(offences.count(Offences.Kind.REPLAY)).isZero();
        assertThat(worker.accept(codec.open(tasks), Wire.COORDINATOR_INCARNATION)).as("a replay of it").isFalse();
        assertThat(worker.accept(codec.open(probe), Wire.COORDINATOR_INCARNATION)).as("a replay of the probe").isFalse();
        assertThat(offences.count(Offences.Kind.REPLAY)).isEqualTo(2);
    }

    @Test
    void aHoldersFetchRequestOvertakenByItsReplyToTheRequesterIsAnswered() {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        long holderIncarnation = Incarnations.newIncarnation();
        long requesterIncarnation = Incarnations.newIncarnation();
        Session holder = new Session(1, holderIncarnation, new Offences("holder"));
        holder.join(SESSION);
        Offences offences = new Offences("requester");
        Session requester = new Session(2, requesterIncarnation, offences);
        requester.join(SESSION);

        // worker 1 asks worker 2 for a value; the request waits for a thread of 2's busy fetch pool
        byte[] request = codec.seal(holder.frame(2, requesterIncarnation,
                List.of(new WireMessage.FetchRequest("a", 2, 1))));
        // worker 1 reports to the coordinator and answers other workers' fetches meanwhile
        for (int i = 0; i < ReplayWindow.WINDOW; i++) {
            holder.frame(i % 2 == 0 ? Wire.COORDINATOR : 3, Wire.COORDINATOR_INCARNATION,
                    new WireMessage.FetchReply("b", 1, new byte[0]));
        }
        // and answers worker 2's own fetch, whose reply a callback thread of 2 opens at once
        byte[] reply = codec.seal(holder.frame(2, requesterIncarnation,
                List.of(new WireMessage.FetchReply("b", 1, new byte[0]))));

        assertThat(requester.accept(codec.open(reply), holderIncarnation)).as("the reply").isTrue();
        assertThat(requester.accept(codec.open(request), holderIncarnation))
                .as("the request it overtook, never seen here").isTrue();
        assertThat(offences.count(Offences.Kind.REPLAY)).isZero();
    }
}
