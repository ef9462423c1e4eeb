/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/** Stand-ins for a Hazelcast instance and its executor, for tests that drive the transport's classes by hand. */
final class FakeInstances {

    private FakeInstances() {
    }

    /** An executor service that tells {@code calls} each method called (name, arguments) and does nothing else. */
    static IExecutorService executor(BiConsumer<String, Object[]> calls) {
        return (IExecutorService) Proxy.newProxyInstance(FakeInstances.class.getClassLoader(),
                new Class<?>[] {IExecutorService.class}, (p, method, args) -> {
                    calls.accept(method.getName(), args);
                    return switch (method.getName()) {
                        case "hashCode" -> System.identityHashCode(p);
                        case "equals" -> p == args[0];
                        default -> null;
                    };
                });
    }

    /** An instance with {@code executor} as its executor service and {@code cluster} (may be null) as its cluster. */
    static HazelcastInstance instance(IExecutorService executor, Cluster cluster) {
        return (HazelcastInstance) Proxy.newProxyInstance(FakeInstances.class.getClassLoader(),
                new Class<?>[] {HazelcastInstance.class}, (p, method, args) -> switch (method.getName()) {
                    case "getExecutorService" -> executor;
                    case "getCluster" -> cluster;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    case "toString" -> "fake instance";
                    default -> null;
                });
    }

    /** The event of {@code member} leaving, {@code remaining} staying, in a stand-in cluster. */
    static MembershipEvent removed(Member member, Set<Member> remaining) {
        Cluster cluster = (Cluster) Proxy.newProxyInstance(FakeInstances.class.getClassLoader(),
                new Class<?>[] {Cluster.class}, (p, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    case "toString" -> "cluster";
                    default -> null;
                });
        return new MembershipEvent(cluster, member, MembershipEvent.MEMBER_REMOVED, remaining);
    }

    /** Waits until {@code transport}'s sender thread has sent what was flushed before. */
    static void drainSender(CoordinatorTransport transport) throws Exception {
        Field f = CoordinatorTransport.class.getDeclaredField("sender");
        f.setAccessible(true);
        ((ExecutorService) f.get(transport)).submit(() -> { }).get(30, TimeUnit.SECONDS);
    }

    /**
     * A stand-in member with a new id: the coordinator if {@code local} (this process's member),
     * else one that says it is a worker; both state the default frame limit.
     */
    static Member member(boolean local) {
        UUID uuid = UUID.randomUUID();
        return (Member) Proxy.newProxyInstance(FakeInstances.class.getClassLoader(), new Class<?>[] {Member.class},
                (p, method, args) -> switch (method.getName()) {
                    case "getUuid" -> uuid;
                    case "localMember" -> local;
                    case "getAttribute" -> switch ((String) args[0]) {
                        case Roster.ROLE -> local ? Roster.COORDINATOR_ROLE : Roster.WORKER_ROLE;
                        case Roster.FRAME_LIMIT -> Integer.toString(HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
                        default -> null;
                    };
                    case "hashCode" -> uuid.hashCode();
                    case "equals" -> p == args[0];
                    case "toString" -> "member " + uuid;
                    default -> null;
                });
    }

    /**
     * A stand-in cluster view: {@code local} is this member, {@code members} the members it sees.
     */
    static Cluster cluster(Member local, Set<Member> members) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (p, m, a) -> switch (m.getName()) {
                    case "getLocalMember" -> local;
                    case "getMembers" -> members;
                    case "hashCode" -> 0;
                    case "equals" -> p == a[0];
                    default -> null;
                });
    }

    /**
     * Plays {@code coordinator}'s handshake with worker 0's {@code transport} (member {@code me}),
     * which accepts it and joins its session.
     */
    static void joinSession(WorkerTransport transport, FrameCodec codec, Member me, Member coordinator) {
        UUID s = UUID.randomUUID();
        byte[] nc = Handshake.nonce();
        Handshake.Response r = Handshake.response(transport.onHandshake(
                new Handshake.Challenge(s, coordinator.getUuid(), me.getUuid(), nc).encode()));
        byte[] mac = Handshake.verdictMac(codec, s, coordinator.getUuid(), me.getUuid(), nc, r.nonce(), 0,
                r.incarnation(), Handshake.ACCEPTED, "");
        if (transport.onHandshake(new Handshake.Verdict(s, coordinator.getUuid(), r.nonce(), Handshake.ACCEPTED,
                "", mac).encode()).length != 0) {
            throw new AssertionError("worker 0 did not accept the coordinator's verdict");
        }
    }
}
