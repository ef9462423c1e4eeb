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
import dev.spindle.cluster.WorkerNode;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fetch's call is answered by the holder's member, which chooses the type of its answer: a
 * member that runs other code (or Hazelcast-level interference) can answer with something that is
 * not a {@link FrameReply}. The requester's callback was typed {@code ExecutionCallback<FrameReply>},
 * so the answer's cast threw a {@link ClassCastException} inside Hazelcast's completion, which
 * Hazelcast only logs; nothing times a fetch out, so the fetch, and every task waiting for its
 * value, waited for ever. Now such an answer fails the fetch, whose value is then fetched again or
 * computed again. Played by hand as {@link FetchReplyOverTheFrameLimitTest} is; the callback is
 * called as Hazelcast calls it (what it throws goes nowhere).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchAnsweredWithAnotherTypeTest {

    private static final byte[] SECRET = "fetch-answer-type-secret-0123456".getBytes(StandardCharsets.UTF_8);

    private record Call(Object task, Member to, ExecutionCallback<Object> callback) {
    }

    private final Offences offences = new Offences("worker 0");
    private final FrameCodec codec = new FrameCodec(SECRET, List.of(), offences);
    private final Roster roster = new Roster(offences);
    private final WorkerTransport transport = new WorkerTransport(0, codec, roster, 8192);
    private final WorkerNode node = new WorkerNode(0, 1, transport);
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        node.close();
        transport.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"deliver", "string", "bytes"})
    @SuppressWarnings("unchecked")
    void anAnswerThatIsNotAFetchReplyFailsTheFetch(String kind) throws Exception {
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
        Wire.Members members = new Wire.Members(Map.of(0, me.getUuid(), 1, holder.getUuid()),
                Map.of(0, r.incarnation(), 1, Incarnations.newIncarnation()));
        assertThat(transport.onFetch(codec.seal(coordinatorSession.frame(0, r.incarnation(), members)))).isNotNull();
        assertThat(roster.worker(1)).isSameAs(holder);

        CompletableFuture<Object> fetched = transport.fetch("k", 1, 0);
        Call call = calls.poll(10, TimeUnit.SECONDS);
        assertThat(call).as("the fetch request sent to worker 1").isNotNull();
        Object answer = switch (kind) {
            case "deliver" -> new Deliver(new byte[] {1, 2, 3});
            case "string" -> "not a reply";
            default -> new byte[] {1, 2, 3};
        };
        try {
            call.callback().onResponse(answer);
        } catch (RuntimeException thrown) {
            // Hazelcast logs what a callback throws, and calls nothing else
        }

        assertThatThrownBy(() -> fetched.get(10, TimeUnit.SECONDS)).as("the fetch answered with a " + kind)
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SecurityException.class).hasMessageContaining("not a fetch reply");
    }
}
