/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WorkerNode;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fetch reply is bounded by the requester's frame limit ({@link HazelcastClusterSettings#maxFrameBytes},
 * "the largest frame (a message, fetch request or fetched value) this member reads") as every
 * message is. The holder's answer came back as a plain {@code byte[]}, which Hazelcast allocates at
 * the length the answering member declares, and the requester verified, copied and deserialised
 * it whatever its size: a worker holding the secret could answer a fetch with a reply of any size
 * (or declare one), and the requester took it. Played here by hand: worker 0's transport fetches
 * from worker 1, whose member answers with a signed reply four times the limit; the reply travels
 * through a Hazelcast serialisation service as it would on arrival.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchReplyOverTheFrameLimitTest {

    private static final byte[] SECRET = "fetch-reply-limit-secret-0123456".getBytes(StandardCharsets.UTF_8);
    private static final int LIMIT = 8192;

    private record Call(Object task, Member to, ExecutionCallback<Object> callback) {
    }

    private final Offences offences = new Offences("worker 0");
    private final FrameCodec codec = new FrameCodec(SECRET, List.of(), offences);
    private final Roster roster = new Roster(offences);
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster, LIMIT);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        node.close();
        transport.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aReplyOverTheFrameLimitFailsTheFetchUnreadAndIsCountedAsOversized() throws Exception {
        Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
        Member coordinator = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        Member holder = HandshakeRegressionTest.member(UUID.randomUUID(), false);
        HazelcastInstance instance = FakeInstances.instance(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember") && args.length == 3) {
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
        Wire.Members members = new Wire.Members(Map.of(0, me.getUuid(), 1, holder.getUuid()),
                Map.of(0, r.incarnation(), 1, holderIncarnation));
        assertThat(transport.onFetch(codec.seal(coordinatorSession.frame(0, r.incarnation(), members)))).isNotNull();
        assertThat(roster.worker(1)).isSameAs(holder);

        // worker 1, a holder of the secret in the session, answers with a signed reply over the limit
        Session holderSession = new Session(1, holderIncarnation, new Offences("holder"));
        holderSession.join(s);
        byte[] oversized = codec.seal(holderSession.frame(0, r.incarnation(),
                new WireMessage.FetchReply("k", 1, codec.serialize(new byte[4 * LIMIT]))));
        assertThat(oversized.length).isGreaterThan(LIMIT);

        CompletableFuture<Object> fetched = transport.fetch("k", 1, 0);
        Call call = calls.poll(10, TimeUnit.SECONDS);
        assertThat(call).as("the fetch request sent to worker 1").isNotNull();
        assertThat(call.to()).isSameAs(holder);
        // the call runs on the holder's member, whose endpoint answers; its answer crosses the wire
        ((FetchCall) call.task()).setHazelcastInstance(memberWith(frame -> oversized));
        Object answer = ((FetchCall) call.task()).call();
        Object arrived = serialisation(LIMIT, offences).toObject(
                serialisation(HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES, new Offences("holder")).toData(answer));
        call.callback().onResponse(arrived);

        assertThatThrownBy(() -> fetched.get(10, TimeUnit.SECONDS)).as("the fetch of a reply over the limit")
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SecurityException.class).hasMessageContaining("over the frame limit of " + LIMIT);
        assertThat(offences.count(Offences.Kind.OVERSIZED)).as("counted as oversized").isEqualTo(1);
    }

    /** A member's serialisation service with Spindle's factory and frame limit {@code limit}. */
    private static InternalSerializationService serialisation(int limit, Offences offences) {
        return new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(SpindleSerializables.FACTORY_ID, new SpindleSerializables(limit, offences))
                .build();
    }

    /** A member whose endpoint answers every fetch with {@code onFetch}'s frame. */
    private static HazelcastInstance memberWith(java.util.function.UnaryOperator<byte[]> onFetch) {
        Endpoint endpoint = new Endpoint() {
            @Override
            public void onFrame(byte[] frame) {
            }

            @Override
            public byte[] onFetch(byte[] frame) {
                return onFetch.apply(frame);
            }

            @Override
            public byte[] onHandshake(byte[] message) {
                return null;
            }
        };
        ConcurrentHashMap<String, Object> context = new ConcurrentHashMap<>(Map.of(Endpoint.USER_CONTEXT_KEY, endpoint));
        return (HazelcastInstance) Proxy.newProxyInstance(FetchReplyOverTheFrameLimitTest.class.getClassLoader(),
                new Class<?>[] {HazelcastInstance.class}, (p, method, args) -> switch (method.getName()) {
                    case "getUserContext" -> context;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    default -> null;
                });
    }
}
