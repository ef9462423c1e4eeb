/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.TaskFunction;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch the coordinator's sender thread has already taken off the queue is not covered by the
 * fence of a lost worker nor by the discard of its queue: if the worker's loss and its
 * successor's admission (a new process proving the same id) both happen while that batch is
 * being encoded, the batch must still go to the process it was queued for (or nowhere), never be
 * sealed for and delivered to the successor, which would run the predecessor's tasks and count
 * its releases. The encoding is held at a task function's serialisation. Driven by hand: a fake
 * Hazelcast instance records what is sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchInFlightAcrossRejoinTest {

    private static final byte[] SECRET = "in-flight-rejoin-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    /** Counted down when the sender thread is serialising the {@link Held} function. */
    static volatile CountDownLatch encoding;
    /** Lets that serialisation finish. */
    static volatile CountDownLatch proceed;

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final Member old = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private final Member successor = HandshakeRegressionTest.member(UUID.randomUUID(), false);
    private final long newIncarnation = Incarnations.newIncarnation();
    private CoordinatorTransport transport;

    private record Sent(Member to, Wire.Frame frame) {
    }

    /** A task function whose serialisation waits until the test lets it go on. */
    static final class Held implements TaskFunction<Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> args) {
            return 1;
        }

        private void writeObject(ObjectOutputStream out) throws IOException, InterruptedException {
            encoding.countDown();
            proceed.await(20, TimeUnit.SECONDS);
            out.defaultWriteObject();
        }
    }

    @BeforeEach
    void start() {
        encoding = new CountDownLatch(1);
        proceed = new CountDownLatch(1);
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        transport = new CoordinatorTransport(codec, roster, session, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember")) {
                sent.add(new Sent((Member) args[1], codec.open(((Deliver) args[0]).frame)));
            }
        }), null), scheduler::add);
        assertThat(roster.prove(1, old, Incarnations.newIncarnation())).isEqualTo(Incarnations.Proof.NEW);
    }

    @Test
    void aBatchBeingEncodedWhenItsWorkerIsLostAndItsSuccessorAdmittedIsNotSentToTheSuccessor() throws Exception {
        transport.toWorker(1, new Message.Compute("a", 1, new Held(), List.of(), Map.of(), 0, 0));
        transport.toWorker(1, new Message.ReleaseKey("k", 1));
        transport.flush();
        assertThat(encoding.await(10, TimeUnit.SECONDS)).as("the sender thread encodes the batch").isTrue();

        // meanwhile worker 1's member leaves, its restarted process proves the id at once, and the
        // scheduler handles the loss and admits the successor
        roster.memberRemoved(FakeInstances.removed(old, Set.of(successor)));
        assertThat(scheduler).contains(new Message.WorkerLost(1));
        assertThat(roster.prove(1, successor, newIncarnation)).isEqualTo(Incarnations.Proof.REJOINED);
        transport.admitting(1);

        proceed.countDown();
        FakeInstances.drainSender(transport);

        List<Wire.Frame> toSuccessor = new ArrayList<>();
        synchronized (sent) {
            sent.stream().filter(s -> s.to() == successor).forEach(s -> toSuccessor.add(s.frame()));
        }
        assertThat(toSuccessor).as("the predecessor's batch delivered to its successor").isEmpty();
    }
}
