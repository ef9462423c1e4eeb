/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.MemberLeftException;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.WorkerNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's reports went to the coordinator with {@code executeOnMember}, which drops the
 * invocation's future: a report whose invocation Hazelcast failed after accepting it (the
 * connection reset, the coordinator's executor refused it) was lost with nobody told, while the
 * coordinator stayed, and the task's caller waited for good. Now the worker leaves the cluster, as
 * for a report Hazelcast refuses at once, so that the coordinator places its tasks again; an
 * invocation that failed because the coordinator left is left to membership (the worker leaves
 * for that reason). Driven by hand: a fake Hazelcast instance accepts each invocation and the test
 * fails it afterwards.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UndeliveredReportsLeaveTheClusterTest {

    private static final byte[] SECRET = "undelivered-reports-secret-01234".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("worker 0"));
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster,
            HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    /** The callbacks of the invocations accepted so far (none where the sender asks for none). */
    private final List<ExecutionCallback<Object>> accepted = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger left = new AtomicInteger();

    @BeforeEach
    @SuppressWarnings("unchecked")
    void start() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        HazelcastInstance instance = FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (args != null && args.length == 3 && args[0] instanceof Deliver && args[2] instanceof ExecutionCallback) {
                accepted.add((ExecutionCallback<Object>) args[2]);
            }
        }), FakeInstances.cluster(me, Set.of(me, coordinator)));
        transport.attach(node, instance);
        transport.onReportsUnsent(left::incrementAndGet);

        FakeInstances.joinSession(transport, codec, me, coordinator);   // worker 0 joins its session
        assertThat(roster.coordinator()).isSameAs(coordinator);
    }

    @AfterEach
    void stop() {
        node.close();
        transport.close();
    }

    @Test
    void aReportWhoseAcceptedInvocationFailsWhileTheCoordinatorStaysHasTheWorkerLeave() throws Exception {
        transport.toScheduler(new Message.TaskFinished(0, "a", 1, 42, 8, 1));
        failAccepted(new MemberLeftException("the coordinator left"));
        assertThat(left).as("a coordinator that left is membership's to tell").hasValue(0);

        transport.toScheduler(new Message.TaskFinished(0, "b", 1, 42, 8, 1));
        failAccepted(new RejectedExecutionException("refused on arrival"));

        assertThat(left).as("a result the coordinator will never hear of has the worker leave").hasValue(1);
    }

    /** Fails the invocations accepted since the last call, on another thread, as Hazelcast's callbacks run. */
    private void failAccepted(Throwable failure) throws InterruptedException {
        List<ExecutionCallback<Object>> callbacks;
        synchronized (accepted) {
            callbacks = new ArrayList<>(accepted);
            accepted.clear();
        }
        Thread callbackThread = new Thread(() -> callbacks.forEach(c -> c.onFailure(failure)));
        callbackThread.start();
        callbackThread.join(TimeUnit.SECONDS.toMillis(30));
    }
}
