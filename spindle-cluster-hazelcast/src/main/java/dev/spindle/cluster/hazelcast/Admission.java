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
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The coordinator's side of the {@link Handshake}: it challenges every member that joins, proves
 * the workers into the {@link Roster} and refuses the rest, each refusal counted and logged once
 * (a member claiming to be a coordinator, a member that is not a Spindle worker, a wrong proof, a
 * worker id that is taken, a lost incarnation, or outside the ids a cluster may have). Workers may join
 * after the start with ids beyond the initial ones, and a restarted worker process may rejoin
 * under the id of a lost one, as a new incarnation. Handshakes run on the caller's thread (the
 * coordinator's start-up loop) or, for a member joining later, on Admission's own thread.
 *
 * <p><b>Asking again.</b> A member that joins later is challenged until it is settled (proven, or
 * refused for good) or leaves the cluster, after 250 ms, then twice as long each time, up to
 * {@value #MAX_RETRY_MILLIS} ms between tries. Two kinds of member need it:
 * <ul>
 *   <li>one that does not answer yet: its Spindle side is installed only once Hazelcast's start
 *       returns, and that start can wait for as long as the heartbeat timeout (a restarted
 *       worker's member cannot connect to its frozen or crashed predecessor, still listed);
 *   <li>one whose claim waits: a restarted process proving the id of a process this coordinator
 *       has not yet seen leave ({@link Incarnations.Proof#WAITING}). It is told so in a signed
 *       waiting verdict, the roster's {@link Incarnations} keeps its claim, and it is challenged
 *       again at once when that id is lost ({@link #idLost}, {@link Incarnations#takeWaiting}),
 *       as the Pekko transport tries the same kept claim again; the backoff covers a try that
 *       fails. Only a different incarnation waits; the lost incarnation itself, or the live one
 *       claimed from another member, is refused for good.
 * </ul>
 * The retries are bounded by membership: a worker that gives up waiting leaves the cluster.
 */
final class Admission implements MembershipListener {

    /** The longest pause between two challenges of a member that is not settled. */
    static final int MAX_RETRY_MILLIS = 4_000;
    private static final int FIRST_RETRY_MILLIS = 250;

    private final FrameCodec codec;
    private final Roster roster;
    private final Session session;
    private final HazelcastInstance instance;
    private final int workers;
    private volatile java.util.function.ObjIntConsumer<Incarnations.Proof> onProven = (proof, id) -> { };
    /** Members proven or refused: never challenged again. */
    private final Set<UUID> settled = ConcurrentHashMap.newKeySet();
    /** The next challenge of each member joined later and not settled yet. */
    private final Map<UUID, ScheduledFuture<?>> retries = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retrier = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "spindle-admission");
        t.setDaemon(true);
        return t;
    });

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
        retry(event.getMember(), 0, FIRST_RETRY_MILLIS);
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        UUID left = event.getMember().getUuid();
        settled.remove(left);                 // a claim of its that waits is dropped when it is taken back
        ScheduledFuture<?> next = retries.remove(left);
        if (next != null) {
            next.cancel(false);
        }
    }

    /**
     * Worker {@code id}'s process was lost: a claim that waited for it is tried again now. Called
     * after the roster has marked the id lost, so the claim proves as a rejoin.
     */
    void idLost(int id) {
        Incarnations.Claim<Member> claim = roster.takeWaiting(id);
        if (claim != null) {
            retry(claim.holder(), 0, FIRST_RETRY_MILLIS);   // a claimant that left is skipped there
        }
    }

    /** Challenges {@code m} after {@code delay} ms, then again after {@code next} ms, doubling, until it is settled or gone. */
    private void retry(Member m, long delay, long next) {
        ScheduledFuture<?> before;
        try {
            before = retries.put(m.getUuid(), retrier.schedule(() -> {
                try {
                    if (settled.contains(m.getUuid()) || !instance.getLifecycleService().isRunning()
                            || !instance.getCluster().getMembers().contains(m)) {
                        retries.remove(m.getUuid());
                        return;
                    }
                    admit(m);
                    if (!settled.contains(m.getUuid())) {
                        retry(m, next, Math.min(2 * next, MAX_RETRY_MILLIS));
                    }
                } catch (InterruptedException | RuntimeException e) {
                    // the coordinator is closing, or the member left: nothing to admit
                }
            }, delay, TimeUnit.MILLISECONDS));
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            return;
        }
        if (before != null) {
            before.cancel(false);             // one chain of tries per member
        }
    }

    /** Stops asking members again (the coordinator is closing). */
    void close() {
        retrier.shutdownNow();
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
        byte outcome = Handshake.REFUSED;
        Incarnations.Proof proof = Incarnations.Proof.TAKEN;
        if (!proved) {
            reason = "wrong proof of the shared secret";
        } else if (r.worker() < 0 || r.worker() >= ClusterCoordinator.MAX_WORKERS) {
            reason = "no worker id " + r.worker() + " in this cluster (ids 0.." + (ClusterCoordinator.MAX_WORKERS - 1)
                    + "; " + workers + " to start with, more may join)";
        } else if (r.incarnation() == Wire.COORDINATOR_INCARNATION) {
            reason = "no incarnation (0 is the coordinator's)";
        } else if ((proof = roster.prove(r.worker(), m, r.incarnation())) == Incarnations.Proof.WAITING) {
            // kept by the roster (before the verdict: a loss from now on tries it again)
            outcome = Handshake.WAITING;
            Member holder = roster.worker(r.worker());
            reason = "worker id " + r.worker() + " is taken by " + (holder == null ? "a process" : holder.getAddress())
                    + ", a process the coordinator has not seen leave; this claim waits until it has";
        } else if (proof == Incarnations.Proof.TAKEN) {
            Member holder = roster.worker(r.worker());
            reason = holder == null ? "incarnation " + r.incarnation() + " of worker id " + r.worker()
                    + " was lost; a restarted worker rejoins as a new incarnation"
                    : "worker id " + r.worker() + " is taken by " + holder.getAddress();
        } else {
            outcome = Handshake.ACCEPTED;
            reason = "";
        }
        byte[] mac = Handshake.verdictMac(codec, session.id(), self, m.getUuid(), nc, r.nonce(), r.worker(),
                r.incarnation(), outcome, reason);
        byte[] adopted = call(m, new Handshake.Verdict(session.id(), self, r.nonce(), outcome, reason, mac).encode());
        if (outcome == Handshake.ACCEPTED) {
            onProven.accept(proof, r.worker());
            if (adopted != null && adopted.length == 0) {
                settled.add(m.getUuid());     // it adopted this coordinator; else it is asked again
            }
        } else if (outcome == Handshake.REFUSED) {
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
