/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.OperationTimeoutException;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.WorkerNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's report sent just after its coordinator left the cluster, before this member handled
 * the membership event that says so: Hazelcast refuses the invocation, or fails it after accepting
 * it, and the worker left for its unsent reports, which won over the coordinator's loss when that
 * event came (the first reason wins), so {@link WorkerMain} said the worker could not reach its
 * coordinator rather than that the coordinator had left. Now a frame that could not be sent to a
 * coordinator that this member's view no longer has makes the worker leave for the coordinator's
 * loss (one that fails while the coordinator stays still has it leave for its unsent reports:
 * {@link UnsentReportsLeaveTheClusterTest}). Driven by hand: a fake Hazelcast instance fails the
 * invocations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportsToALeftCoordinatorTest {

    private static final byte[] SECRET = "left-coordinator-secret-01234567".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("worker 0"));
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster,
            HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    /** What the fake executor throws on every invocation. */
    private final AtomicReference<RuntimeException> refuse = new AtomicReference<>();
    /** What the fake executor fails every accepted invocation with, on its callback. */
    private final AtomicReference<Throwable> fail = new AtomicReference<>();
    private final Set<Member> members = new CopyOnWriteArraySet<>();
    private final AtomicInteger unsent = new AtomicInteger();
    private final AtomicInteger coordinatorLost = new AtomicInteger();
    private Member coordinator;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void start() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        members.add(me);
        members.add(coordinator);
        HazelcastInstance instance = FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember")) {
                RuntimeException r = refuse.get();
                if (r != null) {
                    throw r;
                }
                Throwable t = fail.get();
                if (t != null) {
                    ((ExecutionCallback<Object>) args[2]).onFailure(t);
                }
            }
        }), FakeInstances.cluster(me, members));
        transport.attach(node, instance);
        transport.onReportsUnsent(unsent::incrementAndGet);
        roster.onCoordinatorLost(coordinatorLost::incrementAndGet);

        FakeInstances.joinSession(transport, codec, me, coordinator);   // worker 0 joins its session
        assertThat(roster.coordinator()).isSameAs(coordinator);
    }

    @AfterEach
    void stop() {
        node.close();
        transport.close();
    }

    @Test
    void aReportRefusedForACoordinatorThatLeftHasTheWorkerLeaveForTheCoordinatorsLoss() {
        members.remove(coordinator);          // it left; the membership event is not handled yet
        refuse.set(new RejectedExecutionException("no such member"));

        transport.toScheduler(new Message.TaskFinished(0, "a", 1, 42, 8, 1));

        assertThat(coordinatorLost).as("the worker leaves for the coordinator's loss").hasValue(1);
        assertThat(unsent).as("not for reports it could not send").hasValue(0);
    }

    @Test
    void aReportFailedAfterAcceptanceForACoordinatorThatLeftHasTheWorkerLeaveForTheCoordinatorsLoss() {
        members.remove(coordinator);
        fail.set(new OperationTimeoutException("no response"));

        transport.toScheduler(new Message.TaskFinished(0, "a", 1, 42, 8, 1));

        assertThat(coordinatorLost).as("the worker leaves for the coordinator's loss").hasValue(1);
        assertThat(unsent).as("not for reports it could not send").hasValue(0);
    }
}
