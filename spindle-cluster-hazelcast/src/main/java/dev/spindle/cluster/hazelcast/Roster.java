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
import java.util.UUID;
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
 *
 * <p>Members are checked again and again (on every join event, and every 50 ms while the
 * coordinator waits for its workers), so a refusal is counted and logged once per offending
 * member (by Hazelcast UUID), not once per check. A worker also learns from its own checks that
 * it cannot take part: the coordinator's proof fails under its secret (one side has the wrong
 * secret), or an older member already holds its worker id.
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
    /** Members refused so far and still in the cluster: each is counted and logged once. */
    private final Set<UUID> refusedMembers = ConcurrentHashMap.newKeySet();
    private volatile String coordinatorRefused;
    private volatile String idTakenBy;
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

    /**
     * Checks every current member but the local one. The list is in join order, so a verified
     * worker with the local worker's id ahead of the local member holds that id: the local
     * worker is the duplicate (the coordinator keeps the first to join, see {@link #admit}).
     */
    void admitAll(com.hazelcast.cluster.Cluster cluster) {
        boolean older = true;
        for (Member m : cluster.getMembers()) {
            if (m.localMember()) {
                older = false;
            } else if (admit(m) && older && WORKER_ROLE.equals(m.getAttribute(ROLE))
                    && m.getAttribute(WORKER).equals(cluster.getLocalMember().getAttribute(WORKER))) {
                idTakenBy = String.valueOf(m.getAddress());
            }
        }
    }

    /**
     * Why this worker cannot take part, or {@code null}: the coordinator's proof failed here
     * (so this worker's proof fails there), or an older member holds this worker's id.
     */
    String refusal() {
        String taken = idTakenBy;
        if (taken != null) {
            return "worker id already taken by the member at " + taken;
        }
        return coordinatorRefused;
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
            if (COORDINATOR_ROLE.equals(role)) {
                coordinatorRefused = "the coordinator at " + m.getAddress() + " does not prove this member's "
                        + "secret: the secrets differ, and it refuses this member likewise";
            }
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

    /** Refuses {@code m}; counts and logs only its first refusal. */
    private boolean refuse(Member m, String why) {
        if (refusedMembers.add(m.getUuid())) {
            refused.incrementAndGet();
            LOG.log(Level.WARNING, "ignoring member {0}: {1}", m.getAddress(), why);
        }
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
        refusedMembers.remove(m.getUuid());   // UUIDs are never reused: the set stays small
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

    /** Members ignored because they could not prove the secret, each counted once. */
    long refused() {
        return refused.get();
    }
}
