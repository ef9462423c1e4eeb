/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.Incarnations;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The coordinator's side of the {@link Handshake}: it challenges every member that joins, proves
 * the workers into the {@link Roster} and refuses the rest, each refusal counted and logged once
 * (a member claiming to be a coordinator, a member that is not a Spindle worker, a wrong proof, a
 * worker id that is taken, a lost incarnation, or outside the ids a cluster may have). Workers may join
 * after the start with ids beyond the initial ones, and a restarted worker process may rejoin
 * under the id of a lost one, as a new incarnation. A member that does not answer yet (its Spindle side not
 * installed) is asked again on the next round. Handshakes run on the caller's thread (the
 * coordinator's start-up loop) or, for a member joining later, on a thread of its own.
 */
final class Admission implements MembershipListener {

    private final FrameCodec codec;
    private final Roster roster;
    private final Session session;
    private final HazelcastInstance instance;
    private final int workers;
    private volatile java.util.function.ObjIntConsumer<Incarnations.Proof> onProven = (proof, id) -> { };
    /** Members proven or refused: never challenged again. */
    private final Set<UUID> settled = ConcurrentHashMap.newKeySet();

    Admission(FrameCodec codec, Roster roster, Session session, HazelcastInstance instance, int workers) {
        this.workers = workers;
        this.codec = codec;
        this.roster = roster;
        this.session = session;
        this.instance = instance;
    }

    /** Called with each worker proven ({@link Incarnations.Proof#NEW} or a rejoin) and its id, on the thread that proved it. */
    void onProven(java.util.function.ObjIntConsumer<Incarnations.Proof> callback) {
        this.onProven = callback;
    }

    /** Challenges every member not settled yet. */
    void admitAll() throws InterruptedException {
        for (Member m : instance.getCluster().getMembers()) {
            if (!m.localMember() && !settled.contains(m.getUuid())) {
                admit(m);
            }
        }
    }

    @Override
    public void memberAdded(MembershipEvent event) {
        Member m = event.getMember();
        Thread t = new Thread(() -> {
            try {
                for (int i = 0; i < 20 && !settled.contains(m.getUuid()) && instance.getLifecycleService().isRunning()
                        && instance.getCluster().getMembers().contains(m); i++) {
                    admit(m);
                    Thread.sleep(250);
                }
            } catch (InterruptedException | RuntimeException e) {
                // the coordinator is closing, or the member left: nothing to admit
            }
        }, "spindle-admission");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        settled.remove(event.getMember().getUuid());
    }

    /** One handshake with {@code m}; settles it unless it did not answer. */
    private synchronized void admit(Member m) throws InterruptedException {
        if (settled.contains(m.getUuid())) {
            return;
        }
        String role = m.getAttribute(Roster.ROLE);
        if (Roster.COORDINATOR_ROLE.equals(role)) {
            refuse(m, Offences.Kind.REFUSED_COORDINATOR, "a second coordinator in this session");
            return;
        }
        if (!Roster.WORKER_ROLE.equals(role)) {
            refuse(m, Offences.Kind.REFUSED_MEMBER, "not a Spindle worker");
            return;
        }
        UUID self = instance.getCluster().getLocalMember().getUuid();
        byte[] nc = Handshake.nonce();
        byte[] answer = call(m, new Handshake.Challenge(session.id(), self, m.getUuid(), nc).encode());
        Handshake.Response r = Handshake.response(answer);
        if (r == null) {
            return;                           // no answer yet (or not a Spindle member): try again later
        }
        boolean proved = r.member().equals(m.getUuid()) && Handshake.macEquals(r.mac(),
                Handshake.workerMac(codec, session.id(), self, m.getUuid(), nc, r.nonce(), r.worker(), r.incarnation()));
        String reason;
        Incarnations.Proof proof = Incarnations.Proof.TAKEN;
        if (!proved) {
            reason = "wrong proof of the shared secret";
        } else if (r.worker() < 0 || r.worker() >= ClusterCoordinator.MAX_WORKERS) {
            reason = "no worker id " + r.worker() + " in this cluster (ids 0.." + (ClusterCoordinator.MAX_WORKERS - 1)
                    + "; " + workers + " to start with, more may join)";
        } else if (r.incarnation() == Wire.COORDINATOR_INCARNATION) {
            reason = "no incarnation (0 is the coordinator's)";
        } else if ((proof = roster.prove(r.worker(), m, r.incarnation())) == Incarnations.Proof.TAKEN) {
            Member holder = roster.worker(r.worker());
            reason = holder == null ? "incarnation " + r.incarnation() + " of worker id " + r.worker()
                    + " was lost; a restarted worker rejoins as a new incarnation"
                    : "worker id " + r.worker() + " is taken by " + holder.getAddress();
        } else {
            reason = "";
        }
        boolean accepted = reason.isEmpty();
        byte[] mac = Handshake.verdictMac(codec, session.id(), self, m.getUuid(), nc, r.nonce(), r.worker(),
                r.incarnation(), accepted, reason);
        call(m, new Handshake.Verdict(session.id(), self, accepted, reason, mac).encode());
        if (accepted) {
            settled.add(m.getUuid());
            onProven.accept(proof, r.worker());
        } else {
            refuse(m, Offences.Kind.REFUSED_MEMBER, reason);
        }
    }

    private void refuse(Member m, Offences.Kind kind, String why) {
        settled.add(m.getUuid());
        roster.offences().record(kind, m.getUuid(), why + " (member at " + m.getAddress() + ")");
    }

    /** Runs one handshake step on {@code m}; {@code null} if it fails or takes over 5 s. */
    private byte[] call(Member m, byte[] message) throws InterruptedException {
        try {
            return instance.getExecutorService(HazelcastConfigs.FETCHES)
                    .submitToMember(new HandshakeCall(message), m).get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return null;
        }
    }
}
