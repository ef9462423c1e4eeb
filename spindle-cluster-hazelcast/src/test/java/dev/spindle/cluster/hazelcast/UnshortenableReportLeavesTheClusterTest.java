/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.WorkerNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker shortens a report over the frame limit (a result becomes its task's failure, a failure
 * goes without its message and stack trace); one still too large after that was only logged, and
 * the coordinator never heard of the task: here a failure whose key and exception class name
 * together are longer than the smallest frame limit allowed, the task's caller waiting for good.
 * Now the worker leaves the cluster, as for a report it cannot send, so that the coordinator
 * places its tasks again (and errs a task that takes more workers than it allows). Driven by hand:
 * a fake Hazelcast instance records the invocations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnshortenableReportLeavesTheClusterTest {

    private static final byte[] SECRET = "unshortenable-report-secret-0123".getBytes(StandardCharsets.UTF_8);
    private static final int FRAME_LIMIT = 4096;

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("worker 0"));
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster, FRAME_LIMIT);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger left = new AtomicInteger();

    /** What a task throws: an exception whose class name is long. */
    static final class AnExceptionOfAClassWhoseNameIsLongerThanTheFewBytesThatAreLeftInTheFrameForIt
            extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AnExceptionOfAClassWhoseNameIsLongerThanTheFewBytesThatAreLeftInTheFrameForIt() {
            super("failed");
        }
    }

    @BeforeEach
    void start() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        HazelcastInstance instance = FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (args != null && args.length >= 2 && args[0] instanceof Deliver) {
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
    void aFailureTooLargeForAFrameEvenShortenedHasTheWorkerLeave() {
        transport.toScheduler(new Message.TaskErred(0, "small", 1, new IllegalStateException("failed"), 1));
        assertThat(sent).as("a report that fits goes").hasValue(1);

        String key = "k".repeat(FRAME_LIMIT - 100);
        transport.toScheduler(new Message.TaskErred(0, key, 1,
                new AnExceptionOfAClassWhoseNameIsLongerThanTheFewBytesThatAreLeftInTheFrameForIt(), 1));

        assertThat(sent).as("the report cannot go, even without its message and trace").hasValue(1);
        assertThat(left).as("a failure the coordinator will never hear of has the worker leave").hasValue(1);
    }
}
