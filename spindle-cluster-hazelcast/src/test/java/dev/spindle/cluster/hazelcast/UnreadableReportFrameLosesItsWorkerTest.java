/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.ValueCodec;
import dev.spindle.cluster.WireMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A proven worker's signed frame whose reports the coordinator's codec refuses: a memory report
 * with a negative figure (a worker's store sums the sizes its {@code Sized} values declare, and
 * two near {@code Long.MAX_VALUE / 2} wrap it negative), sent in one frame with a result, as a
 * worker's batches group what is reported while a frame is being sent. The codec refuses the
 * whole frame, and the coordinator dropped it with nobody told: the result was never delivered,
 * its caller waited for good, and nothing else would notice (frames to the coordinator may
 * overtake each other, so no gap in their numbers tells, as it does on the Pekko transport). The
 * worker is now handled as lost, its tasks placed again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreadableReportFrameLosesItsWorkerTest {

    private static final byte[] SECRET = "unreadable-report-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final UUID SESSION = UUID.randomUUID();

    @Test
    void aProvenWorkersFrameThatCannotBeReadHasTheWorkerHandledAsLost() {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        Offences offences = new Offences("coordinator");
        Roster roster = new Roster(offences);
        long incarnation = Incarnations.newIncarnation();
        Member member = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        assertThat(roster.prove(1, member, incarnation)).isEqualTo(Incarnations.Proof.NEW);
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, offences);
        session.join(SESSION);
        CoordinatorTransport transport = new CoordinatorTransport(codec, roster, session, 1 << 20);
        List<Message.ToScheduler> received = new CopyOnWriteArrayList<>();
        transport.attach(null, received::add);
        Session worker = new Session(1, incarnation, new Offences("worker"));
        worker.join(SESSION);
        try {
            byte[] frame = codec.seal(worker.frame(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, List.of(
                    new WireMessage.Finished(1, "result", 1, ValueCodec.write(42, 1 << 20), 8, 1),
                    // the figure of a store holding two values that each declare Long.MAX_VALUE / 2 + 1 bytes
                    new Message.MemoryReport(1, (Long.MAX_VALUE / 2 + 1) * 2, 0, false))));

            transport.onFrame(frame);

            assertThat(received).as("what the scheduler heard of the frame")
                    .containsExactly(new Message.WorkerLost(1));
            assertThat(roster.worker(1)).as("the worker's process, handled as lost").isNull();

            // a frame that does not verify (another secret) names a worker it cannot speak for: ignored
            assertThat(roster.prove(2, HandshakeRegressionTest.member(UUID.randomUUID(), false), incarnation))
                    .isEqualTo(Incarnations.Proof.NEW);
            Session forger = new Session(2, incarnation, new Offences("forger"));
            forger.join(SESSION);
            transport.onFrame(new FrameCodec("another-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8),
                    List.of()).seal(forger.frame(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION,
                    new Message.MemoryReport(2, -1, 0, false))));
            assertThat(roster.worker(2)).as("a worker named in a frame that does not verify").isNotNull();
        } finally {
            transport.close();
        }
    }
}
