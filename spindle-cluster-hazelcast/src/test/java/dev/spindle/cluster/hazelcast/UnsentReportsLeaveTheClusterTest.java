/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.WorkerNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's reports (a result, a failure) reach the coordinator only through its transport: a
 * batch of them that could not be sent while the coordinator was still a member (Hazelcast
 * refused the invocation) was logged and dropped, and an {@link Error} sending it escaped on the
 * reporting thread with the batch (other threads' reports in it included). The coordinator never
 * heard of those tasks, and their callers waited for good. Now the worker leaves the cluster, so
 * that the coordinator handles it as lost and places its tasks again. Driven by hand: a fake
 * Hazelcast instance fails the invocations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnsentReportsLeaveTheClusterTest {

    private static final byte[] SECRET = "unsent-reports-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("worker 0"));
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster,
            HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    /** What the fake executor throws on every invocation. */
    private final AtomicReference<Throwable> fail = new AtomicReference<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger left = new AtomicInteger();

    @BeforeEach
    void start() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        HazelcastInstance instance = FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember")) {
                Throwable t = fail.get();
                if (t instanceof RuntimeException r) {
                    throw r;
                } else if (t instanceof Error e) {
                    throw e;
                }
                sent.incrementAndGet();
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
    void aReportHazelcastRefusesForALiveCoordinatorHasTheWorkerLeave() {
        transport.toScheduler(new Message.TaskFinished(0, "a", 1, 42, 8, 1));
        assertThat(sent).as("a report that can be sent goes").hasValue(1);
        assertThat(left).as("and the worker stays").hasValue(0);

        fail.set(new RejectedExecutionException("refused"));
        transport.toScheduler(new Message.TaskFinished(0, "b", 1, 42, 8, 1));

        assertThat(left).as("a result the coordinator will never hear of has the worker leave").hasValue(1);
    }

    @Test
    void anErrorSendingAReportStaysOnTheTransportAndHasTheWorkerLeave() {
        fail.set(new OutOfMemoryError("Java heap space"));

        assertThatCode(() -> transport.toScheduler(new Message.TaskFinished(0, "a", 1, 42, 8, 1)))
                .as("the Error does not escape on the reporting thread").doesNotThrowAnyException();
        assertThat(left).as("the lost batch has the worker leave").hasValue(1);
    }
}
