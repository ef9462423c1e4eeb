/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The members that proved the secret, by Spindle role. Hazelcast's open-source edition lets any
 * member with the cluster name join, so each Spindle member announces its role, its worker id and
 * an HMAC of {@code (cluster, role, id, address)} under the secret as member attributes; a member
 * whose proof does not verify is ignored (counted and logged), so nothing is sent to it or
 * accepted as coming from its worker id. The proof is bound to the member's address, which no
 * other process can bind while the member lives.
 */
final class Roster implements MembershipListener {

    static final String ROLE = "spindle.role";
    static final String WORKER = "spindle.worker";
    static final String PROOF = "spindle.proof";
    static final String COORDINATOR_ROLE = "coordinator";
    static final String WORKER_ROLE = "worker";

    private static final System.Logger LOG = System.getLogger(Roster.class.getName());

    private final FrameCodec codec;
    private final String clusterName;
    private final Map<Integer, Member> workers = new ConcurrentHashMap<>();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private volatile Member coordinator;
    private final AtomicLong refused = new AtomicLong();
    private volatile IntConsumer onWorkerLost = id -> { };
    private volatile Runnable onCoordinator = () -> { };

    Roster(FrameCodec codec, String clusterName) {
        this.codec = codec;
        this.clusterName = clusterName;
    }

    /** The proof a member with this role, id and address announces. */
    static String proof(FrameCodec codec, String clusterName, String role, int id, String hostAndPort) {
        byte[] text = ("spindle-member|" + clusterName + "|" + role + "|" + id + "|" + hostAndPort)
                .getBytes(StandardCharsets.UTF_8);
        return Base64.getEncoder().encodeToString(codec.mac(text, 0, text.length));
    }

    /** Checks every current member but the local one. */
    void admitAll(com.hazelcast.cluster.Cluster cluster) {
        for (Member m : cluster.getMembers()) {
            if (!m.localMember()) {
                admit(m);
            }
        }
    }

    /** Called (on a Hazelcast thread) whenever the coordinator's member is admitted. */
    void onCoordinator(Runnable callback) {
        this.onCoordinator = callback;
    }

    void onWorkerLost(IntConsumer callback) {
        this.onWorkerLost = callback;
    }

    /** Checks one member and records it if its proof holds; returns whether it did. */
    boolean admit(Member m) {
        String role = m.getAttribute(ROLE);
        String idText = m.getAttribute(WORKER);
        String proof = m.getAttribute(PROOF);
        int id;
        try {
            id = Integer.parseInt(idText);
        } catch (NumberFormatException e) {
            return refuse(m, "no worker id");
        }
        if (role == null || proof == null) {
            return refuse(m, "no Spindle proof");
        }
        String address = m.getAddress().getHost() + ":" + m.getAddress().getPort();
        String expected = proof(codec, clusterName, role, id, address);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), proof.getBytes(StandardCharsets.UTF_8))) {
            return refuse(m, "wrong proof of the shared secret");
        }
        if (COORDINATOR_ROLE.equals(role)) {
            coordinator = m;
            onCoordinator.run();
            return true;
        }
        if (WORKER_ROLE.equals(role) && id >= 0) {
            Member old = workers.putIfAbsent(id, m);
            if (old != null && !old.getUuid().equals(m.getUuid())) {
                return refuse(m, "worker id " + id + " is taken by " + old.getAddress());
            }
            return true;
        }
        return refuse(m, "unknown role '" + role + "'");
    }

    private boolean refuse(Member m, String why) {
        refused.incrementAndGet();
        LOG.log(Level.WARNING, "ignoring member {0}: {1}", m.getAddress(), why);
        return false;
    }

    @Override
    public void memberAdded(MembershipEvent event) {
        if (!event.getMember().localMember()) {
            admit(event.getMember());
        }
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        Member m = event.getMember();
        for (Map.Entry<Integer, Member> e : workers.entrySet()) {
            if (e.getValue().getUuid().equals(m.getUuid())) {
                lose(e.getKey());
            }
        }
        Member c = coordinator;
        if (c != null && c.getUuid().equals(m.getUuid())) {
            coordinator = null;
        }
    }

    /** Marks a worker lost (once) and tells the callback. */
    void lose(int id) {
        if (lost.add(id)) {
            workers.remove(id);
            onWorkerLost.accept(id);
        }
    }

    /** The live, verified member of worker {@code id}, or {@code null}. */
    Member worker(int id) {
        return lost.contains(id) ? null : workers.get(id);
    }

    /**
     * Like {@link #worker} but first checks the current member list if the worker is unknown:
     * a member can be in the list before its join event reaches this listener, and a message to
     * it must not be dropped for that.
     */
    Member worker(int id, com.hazelcast.cluster.Cluster cluster) {
        Member m = worker(id);
        if (m == null && !lost.contains(id) && cluster != null) {
            admitAll(cluster);
            m = worker(id);
        }
        return m;
    }

    /** The coordinator's member, checking the current member list if it is not known yet. */
    Member coordinator(com.hazelcast.cluster.Cluster cluster) {
        Member m = coordinator;
        if (m == null && cluster != null) {
            admitAll(cluster);
            m = coordinator;
        }
        return m;
    }

    boolean isLost(int id) {
        return lost.contains(id);
    }

    /** Verified live workers. */
    int workers() {
        return workers.size();
    }

    Member coordinator() {
        return coordinator;
    }

    /** Members ignored because they could not prove the secret. */
    long refused() {
        return refused.get();
    }
}
