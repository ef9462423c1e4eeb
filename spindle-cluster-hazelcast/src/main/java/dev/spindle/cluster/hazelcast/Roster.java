/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * The members proven in this member's session, by Spindle role. Hazelcast's open-source edition
 * lets any process that reaches a member port join, so a member's role and worker id attributes
 * are hints only: the coordinator proves each worker by the {@link Handshake} ({@link Admission})
 * and tells the workers who the others are ({@link Wire.Members}); a worker adopts as coordinator
 * only the member that proved itself in a handshake. Nothing is sent to, or accepted from, a
 * member that is not proven here; a worker that left stays lost, so a late reply from it cannot
 * complete a task twice.
 */
final class Roster implements MembershipListener {

    static final String ROLE = "spindle.role";
    static final String WORKER = "spindle.worker";
    static final String COORDINATOR_ROLE = "coordinator";
    static final String WORKER_ROLE = "worker";

    private final Offences offences;
    private final Map<Integer, Member> workers = new ConcurrentHashMap<>();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private volatile Member coordinator;
    private volatile String refusal;
    private volatile IntConsumer onWorkerLost = id -> { };
    private volatile Runnable onCoordinatorLost = () -> { };

    Roster(Offences offences) {
        this.offences = offences;
    }

    void onWorkerLost(IntConsumer callback) {
        this.onWorkerLost = callback;
    }

    void onCoordinatorLost(Runnable callback) {
        this.onCoordinatorLost = callback;
    }

    Offences offences() {
        return offences;
    }

    /**
     * Records that {@code m} proved worker id {@code id}; false (and nothing changes) if the id is
     * held by another member or was lost.
     */
    boolean prove(int id, Member m) {
        if (lost.contains(id)) {
            return false;
        }
        Member old = workers.putIfAbsent(id, m);
        return old == null || old.getUuid().equals(m.getUuid());
    }

    /** The id {@code m} proved, or -1. */
    int idOf(UUID member) {
        for (Map.Entry<Integer, Member> e : workers.entrySet()) {
            if (e.getValue().getUuid().equals(member)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** A worker adopts the coordinator's list of proven workers (members it cannot see are skipped). */
    void adopt(Map<Integer, UUID> proven, com.hazelcast.cluster.Cluster cluster) {
        for (Member m : cluster.getMembers()) {
            for (Map.Entry<Integer, UUID> e : proven.entrySet()) {
                if (e.getValue().equals(m.getUuid()) && !m.localMember()) {
                    workers.putIfAbsent(e.getKey(), m);
                }
            }
        }
    }

    /** Sets the coordinator (a worker, after an accepted verdict); false if another one is set. */
    synchronized boolean adoptCoordinator(Member m) {
        if (coordinator == null) {
            coordinator = m;
            return true;
        }
        return coordinator.getUuid().equals(m.getUuid());
    }

    /** Records why this worker cannot take part (the first reason wins). */
    void refused(String why) {
        if (refusal == null) {
            refusal = why;
        }
    }

    /** Why this worker cannot take part, or {@code null}. */
    String refusal() {
        return refusal;
    }

    @Override
    public void memberAdded(MembershipEvent event) {
        // proving is the Handshake's job; the coordinator's Admission listens for joins itself
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        Member m = event.getMember();
        offences.forget(m.getUuid());
        for (Map.Entry<Integer, Member> e : workers.entrySet()) {
            if (e.getValue().getUuid().equals(m.getUuid())) {
                lose(e.getKey());
            }
        }
        Member c = coordinator;
        if (c != null && c.getUuid().equals(m.getUuid())) {
            onCoordinatorLost.run();          // the coordinator is never replaced in a session
        }
    }

    /** Marks a worker lost (once) and tells the callback. */
    void lose(int id) {
        if (lost.add(id)) {
            workers.remove(id);
            onWorkerLost.accept(id);
        }
    }

    /** The live, proven member of worker {@code id}, or {@code null}. */
    Member worker(int id) {
        return lost.contains(id) ? null : workers.get(id);
    }

    boolean isLost(int id) {
        return lost.contains(id);
    }

    /** Proven live workers. */
    int workers() {
        return workers.size();
    }

    /** The proven coordinator (for a worker), or {@code null}. */
    Member coordinator() {
        return coordinator;
    }

    /** Members refused so far, each counted once. */
    long refused() {
        return offences.count(Offences.Kind.REFUSED_MEMBER) + offences.count(Offences.Kind.REFUSED_COORDINATOR);
    }

    /** The proven workers by id, by member UUID, for {@link Wire.Members}. */
    Map<Integer, UUID> provenWorkers() {
        Map<Integer, UUID> out = new java.util.TreeMap<>();
        workers.forEach((id, m) -> out.put(id, m.getUuid()));
        return out;
    }
}
