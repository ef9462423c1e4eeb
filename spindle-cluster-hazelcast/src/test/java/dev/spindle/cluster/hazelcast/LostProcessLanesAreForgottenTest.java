/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.OutboundBatches;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator queues the scheduler's messages in one lane per worker process (member and
 * incarnation), never reused. A worker that restarts again and again over a long session (a
 * preempted machine, a crash loop) makes a new process each time: the lanes of the lost ones must
 * be forgotten, or the coordinator keeps one more lane (and its process's member) per restart for
 * as long as it runs, and walks them all at every flush. Driven by hand: a fake Hazelcast
 * instance takes what is sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LostProcessLanesAreForgottenTest {

    private static final byte[] SECRET = "lost-process-lanes-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final int RESTARTS = 40;

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aWorkerRestartedManyTimesLeavesNoLaneOfItsLostProcesses() throws Exception {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        CoordinatorTransport transport = new CoordinatorTransport(codec, roster, session,
                HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(FakeInstances.instance(FakeInstances.executor((name, args) -> { }), null), scheduler::add);

        for (int i = 0; i < RESTARTS; i++) {
            Member process = HandshakeRegressionTest.member(UUID.randomUUID(), false);
            assertThat(roster.prove(1, process, Incarnations.newIncarnation()))
                    .isEqualTo(i == 0 ? Incarnations.Proof.NEW : Incarnations.Proof.REJOINED);
            if (i > 0) {
                transport.admitting(1);       // the scheduler handled the loss of the process before
            }
            transport.toWorker(1, new Message.ReleaseKey("k" + i, i + 1));
            transport.flush();
            FakeInstances.drainSender(transport);
            roster.memberRemoved(FakeInstances.removed(process, Set.of()));   // lost again
        }
        assertThat(scheduler).hasSize(RESTARTS).allMatch(m -> m.equals(new Message.WorkerLost(1)));

        assertThat(((Map<?, ?>) field(CoordinatorTransport.class, "lanes", transport)))
                .as("the coordinator's record of each lost process's lane").hasSizeLessThanOrEqualTo(1);
        OutboundBatches batches = (OutboundBatches) field(CoordinatorTransport.class, "batches", transport);
        assertThat(((Map<?, ?>) field(OutboundBatches.class, "lanes", batches)))
                .as("the batches' lanes of lost processes").hasSizeLessThanOrEqualTo(1);
    }

    private static Object field(Class<?> type, String name, Object of) throws ReflectiveOperationException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(of);
    }
}
