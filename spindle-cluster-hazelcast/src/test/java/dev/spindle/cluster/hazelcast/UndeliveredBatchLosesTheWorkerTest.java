/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hazelcast may fail an executor invocation after it accepted it: the connection to the member is
 * reset, the member cannot read the task, or its executor refuses it. The coordinator sent its
 * batches with {@code executeOnMember}, which drops the invocation's future, so such a batch was
 * lost with nobody told while the worker stayed a member: its tasks never ran nor reported.
 * Now the failure reaches the coordinator's transport, which has the worker handled as lost
 * ({@link Message.WorkerLost}), as for an invocation Hazelcast refuses at once. Driven by hand:
 * a fake Hazelcast instance accepts each invocation and the test fails it afterwards.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UndeliveredBatchLosesTheWorkerTest {

    private static final byte[] SECRET = "undelivered-batch-secret-0123456".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    /** The callbacks of the invocations accepted so far (none where the sender asks for none). */
    private final List<ExecutionCallback<Object>> accepted = Collections.synchronizedList(new ArrayList<>());
    private final Member member = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private CoordinatorTransport transport;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void start() {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        transport = new CoordinatorTransport(codec, roster, session, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(FakeInstances.instance(FakeInstances.executor((name, args) -> {
            // accepted: whatever happens to the invocation later is told only to a callback
            if (args != null && args.length == 3 && args[0] instanceof Deliver && args[2] instanceof ExecutionCallback) {
                accepted.add((ExecutionCallback<Object>) args[2]);
            }
        }), null), scheduler::add);
        assertThat(roster.prove(1, member, Incarnations.newIncarnation())).isEqualTo(Incarnations.Proof.NEW);
    }

    @Test
    void aBatchWhoseAcceptedInvocationFailsWhileTheMemberStaysHasTheWorkerHandledAsLost() throws Exception {
        transport.toWorker(1, new Message.Compute("a", 1, args -> 1, List.of(), Map.of(), 0, 0));
        transport.flush();
        FakeInstances.drainSender(transport);
        assertThat(scheduler).as("nothing failed yet").doesNotContain(new Message.WorkerLost(1));

        // the member could not read the task, say; it stays in the cluster, so membership tells nobody
        List<ExecutionCallback<Object>> callbacks;
        synchronized (accepted) {
            callbacks = new ArrayList<>(accepted);
        }
        Thread callbackThread = new Thread(() -> callbacks.forEach(c ->
                c.onFailure(new HazelcastSerializationException("cannot read the task"))));
        callbackThread.start();
        callbackThread.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(scheduler).as("the scheduler hears of the batch that never arrived, and places its tasks again")
                .contains(new Message.WorkerLost(1));
    }
}
