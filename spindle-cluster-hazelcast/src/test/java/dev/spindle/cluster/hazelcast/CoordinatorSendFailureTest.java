/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.TaskFunction;
import dev.spindle.cluster.WireMessage;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator's transport hands the scheduler's batches to its sender thread, whose failures
 * the scheduler never sees (its flush only queues). A batch whose send failed there was lost
 * with nobody told: an {@link Error} escaping the send (one Hazelcast's invocation throws, one a
 * task function's serialisation throws) ended the sender thread with the batch, and an invocation
 * Hazelcast refused for a member that stays in the cluster was dropped as if membership would
 * report it. The batch's tasks never ran nor reported, and their callers waited for good. Now a
 * task whose function cannot be serialised fails alone, and a batch that cannot be sent has the
 * worker handled as lost ({@link Message.WorkerLost}), so that its tasks are placed again.
 * Driven by hand: a fake Hazelcast instance fails or records the invocations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatorSendFailureTest {

    private static final byte[] SECRET = "send-failure-secret-0123456789ab".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final List<Wire.Frame> sent = Collections.synchronizedList(new ArrayList<>());
    /** What the fake executor throws on the next invocation, or null to record it. */
    private final AtomicReference<Throwable> failNext = new AtomicReference<>();
    private final Member member = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private CoordinatorTransport transport;

    /** A task function whose serialisation throws an {@link Error}: a class its writeObject needs is missing. */
    static final class Unlinkable implements TaskFunction<Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> args) {
            return 1;
        }

        private void writeObject(ObjectOutputStream out) {
            throw new NoClassDefFoundError("com/example/Missing");
        }
    }

    @BeforeEach
    void start() {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        transport = new CoordinatorTransport(codec, roster, session, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember")) {
                Throwable t = failNext.getAndSet(null);
                if (t instanceof RuntimeException r) {
                    throw r;
                } else if (t instanceof Error e) {
                    throw e;
                }
                sent.add(codec.open(((Deliver) args[0]).frame));
            }
        }), null), scheduler::add);
        assertThat(roster.prove(1, member, Incarnations.newIncarnation())).isEqualTo(Incarnations.Proof.NEW);
    }

    @Test
    void aBatchWhoseInvocationThrowsAnErrorHasTheWorkerHandledAsLost() throws Exception {
        failNext.set(new OutOfMemoryError("unable to create native thread"));
        transport.toWorker(1, compute("a", 0));
        transport.flush();
        FakeInstances.drainSender(transport);

        assertThat(scheduler).as("the scheduler hears of the batch it lost").contains(new Message.WorkerLost(1));
    }

    @Test
    void aBatchHazelcastRefusesForAMemberThatStaysHasTheWorkerHandledAsLost() throws Exception {
        failNext.set(new RejectedExecutionException("refused"));
        transport.toWorker(1, compute("a", 0));
        transport.flush();
        FakeInstances.drainSender(transport);

        assertThat(scheduler).as("the scheduler hears of the batch it lost").contains(new Message.WorkerLost(1));
    }

    @Test
    void aTaskWhoseFunctionsSerialisationThrowsAnErrorFailsAloneAndTheRestOfItsBatchIsSent() throws Exception {
        transport.toWorker(1, new Message.Compute("bad", 1, new Unlinkable(), List.of(), Map.of(), 0, 0));
        transport.toWorker(1, new Message.ReleaseKey("k", 1));
        transport.toWorker(1, compute("good", 1));
        transport.flush();
        FakeInstances.drainSender(transport);

        assertThat(scheduler).as("the task that cannot travel fails")
                .anySatisfy(m -> assertThat(m).isInstanceOfSatisfying(Message.TaskErred.class,
                        e -> assertThat(e.key()).isEqualTo("bad")));
        List<Object> bodies = new ArrayList<>();
        synchronized (sent) {
            sent.forEach(f -> bodies.addAll(f.bodies()));
        }
        assertThat(bodies).as("the release and the other task still go")
                .anySatisfy(b -> assertThat(b).isEqualTo(new Message.ReleaseKey("k", 1)))
                .anySatisfy(b -> assertThat(b).isInstanceOfSatisfying(WireMessage.Compute.class,
                        c -> assertThat(c.key()).isEqualTo("good")));
    }

    private static Message.Compute compute(String key, long releases) {
        return new Message.Compute(key, 1, args -> 1, List.of(), Map.of(), 0, releases);
    }
}
