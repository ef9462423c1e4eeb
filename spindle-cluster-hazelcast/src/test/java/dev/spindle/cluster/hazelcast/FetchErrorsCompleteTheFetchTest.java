/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WorkerNode;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's fetch has no timeout: it completes when its batch's reply is handed out, or when the
 * batch fails. An {@link Error} (an {@code OutOfMemoryError} reading a fetched value, or sending
 * the request) escaped the transport, which caught only {@link RuntimeException}s, and left the
 * fetch, and the rest of its batch, uncompleted for good: the task that needed the value never
 * ran. Now such a fetch fails, as for a {@code RuntimeException}. Driven by hand: worker 0's
 * transport fetches from worker 1 through a fake Hazelcast instance.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchErrorsCompleteTheFetchTest {

    private static final byte[] SECRET = "fetch-errors-secret-0123456789ab".getBytes(StandardCharsets.UTF_8);

    private record Call(Object task, Member to, ExecutionCallback<Object> callback) {
    }

    /** A value whose reading runs out of memory, as a large one may. */
    static final class TooLargeToRead implements Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(ObjectInputStream in) {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    private final Offences offences = new Offences("worker 0");
    private final FrameCodec codec = new FrameCodec(SECRET, List.of(), offences);
    private final Roster roster = new Roster(offences);
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster,
            HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    /** What the fake executor throws on submitToMember, or null to record the call. */
    private final AtomicReference<Error> failSubmit = new AtomicReference<>();
    private Session holderSession;
    private long myIncarnation;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void start() {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Member holder = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        HazelcastInstance instance = FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember") && args.length == 3) {
                Error e = failSubmit.get();
                if (e != null) {
                    throw e;
                }
                calls.add(new Call(args[0], (Member) args[1], (ExecutionCallback<Object>) args[2]));
            }
        }), FakeInstances.cluster(me, Set.of(me, coordinator, holder)));
        transport.attach(node, instance);

        // the coordinator proves itself to worker 0, then tells it that worker 1 is proven
        UUID s = UUID.randomUUID();
        byte[] nc = Handshake.nonce();
        Handshake.Response r = Handshake.response(transport.onHandshake(
                new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
        byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), 0,
                r.incarnation(), Handshake.ACCEPTED, "");
        assertThat(transport.onHandshake(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(), Handshake.ACCEPTED,
                "", mac).encode())).isEmpty();
        Session coordinatorSession = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("c"));
        coordinatorSession.join(s);
        long holderIncarnation = Incarnations.newIncarnation();
        myIncarnation = r.incarnation();
        Wire.Members members = new Wire.Members(Map.of(0, me.getUuid(), 1, holder.getUuid()),
                Map.of(0, myIncarnation, 1, holderIncarnation));
        assertThat(transport.onFetch(codec.seal(coordinatorSession.frame(0, myIncarnation, members)))).isNotNull();
        assertThat(roster.worker(1)).isSameAs(holder);
        holderSession = new Session(1, holderIncarnation, new Offences("holder"));
        holderSession.join(s);
    }

    @AfterEach
    void stop() {
        node.close();
        transport.close();
    }

    @Test
    void aValueWhoseReadingThrowsAnErrorFailsItsFetch() throws Exception {
        CompletableFuture<Object> fetched = transport.fetch("k", 1, 0);
        Call call = calls.poll(10, TimeUnit.SECONDS);
        assertThat(call).as("the fetch request sent to worker 1").isNotNull();

        byte[] reply = codec.seal(holderSession.frame(0, myIncarnation,
                new WireMessage.FetchReply("k", 1, codec.serialize(new TooLargeToRead()))));
        try {
            call.callback().onResponse(new FrameReply(reply));
        } catch (Error escaped) {
            // Hazelcast would swallow it on its callback thread; the fetch is what matters
        }

        assertThat(fetched).as("the fetch completes").isDone();
        assertThatThrownBy(() -> fetched.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void aRequestWhoseSendingThrowsAnErrorFailsItsFetch() throws Exception {
        failSubmit.set(new OutOfMemoryError("unable to create native thread"));
        CompletableFuture<Object> fetched;
        try {
            fetched = transport.fetch("k", 1, 0);
        } catch (Error escaped) {
            fetched = null;                   // the caller got an Error and no future to wait on
        }

        assertThat(fetched).as("the fetch has a future").isNotNull();
        assertThat(fetched).as("that completes").isDone();
        assertThatThrownBy(fetched::join).cause().isInstanceOf(OutOfMemoryError.class);
    }
}
