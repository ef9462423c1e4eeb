/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An attacker who captured a validly sealed frame of the coordinator to worker 2 replays it to
 * the process that took id 2 after the first was lost or retired. Failed on the code before its
 * fix (docs/measurements/2026-11-29-s26/transport-attack-review-before-after.txt).
 */
class SessionRegressionTest {

    private static final UUID SESSION = UUID.randomUUID();
    private static final byte[] SECRET = "0123456789abcdef-test".getBytes(StandardCharsets.UTF_8);

    @Test
    void aCoordinatorFrameCapturedOnTheWayToALostProcessIsRefusedByItsSuccessor() {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        long first = Incarnations.newIncarnation();
        Session coordinator = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("c"));
        coordinator.join(SESSION);
        byte[] captured = codec.seal(coordinator.frame(2, first, new Message.Retired(2)));

        Session old = new Session(2, first, new Offences("old"));
        old.join(SESSION);
        assertThat(old.accept(codec.open(captured), Wire.COORDINATOR_INCARNATION)).as("the frame's own addressee").isTrue();

        // the process is lost; a new one proves id 2 under another incarnation and joins the session
        long second = Incarnations.newIncarnation();
        Offences offences = new Offences("new");
        Session successor = new Session(2, second, offences);
        successor.join(SESSION);
        assertThat(successor.accept(codec.open(captured), Wire.COORDINATOR_INCARNATION))
                .as("the captured frame replayed to the successor").isFalse();
        assertThat(offences.count(Offences.Kind.REPLAY)).isEqualTo(1);
        // what the coordinator seals for the successor itself is taken
        assertThat(successor.accept(codec.open(codec.seal(coordinator.frame(2, second, new Message.ReleaseKey("k")))),
                Wire.COORDINATOR_INCARNATION)).isTrue();
    }

    /**
     * The receiving thread reads the sender's incarnation from the roster before it checks the
     * frame, so while id 2 rejoins, a frame of the old process may be checked against the old
     * incarnation after frames of the new one were accepted. That check replaced the new
     * incarnation's replay window with one for the old, and the next frame of the new
     * incarnation started a fresh window: a replay of a frame already acted on was accepted
     * again (found by review, session 40; failed before the fix).
     */
    @Test
    void aFrameCheckedAgainstTheOldIncarnationDuringARejoinDoesNotReopenTheNewOnesWindow() {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        Offences offences = new Offences("c");
        Session coordinator = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, offences);
        coordinator.join(SESSION);
        long first = Incarnations.newIncarnation();
        long second = Incarnations.newIncarnation();
        Session lost = new Session(2, first, new Offences("lost"));
        Session successor = new Session(2, second, new Offences("successor"));
        lost.join(SESSION);
        successor.join(SESSION);
        byte[] late = codec.seal(lost.frame(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Message.Retired(2)));
        byte[] captured = codec.seal(successor.frame(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Message.Retired(2)));

        assertThat(coordinator.accept(codec.open(captured), second)).as("the successor's frame").isTrue();
        assertThat(coordinator.accept(codec.open(late), first))
                .as("the lost process's frame, checked by a thread that read the roster before the rejoin").isTrue();
        assertThat(coordinator.accept(codec.open(captured), second)).as("the successor's frame replayed").isFalse();
        assertThat(coordinator.accept(codec.open(late), first)).as("the late frame replayed").isFalse();
        assertThat(offences.count(Offences.Kind.REPLAY)).isEqualTo(2);
    }
}
