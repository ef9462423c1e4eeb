/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import dev.spindle.cluster.Incarnations;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntConsumer;

/**
 * The members proven in this member's session, by Spindle role. Hazelcast's open-source edition
 * lets any process that reaches a member port join, so a member's role and worker id attributes
 * are hints only: the coordinator proves each worker by the {@link Handshake} ({@link Admission})
 * and tells the workers who the others are ({@link Wire.Members}); a worker adopts as coordinator
 * only the member that proved itself in a handshake. Nothing is sent to, or accepted from, a
 * member that is not proven here. Which member holds which id, under which incarnation, follows
 * the shared rules of {@link Incarnations}: a worker that left stays lost until a new process
 * proves the same id under a new incarnation ({@link #prove}); frames are accepted only from an
 * id's current incarnation ({@link #incarnation}, checked by {@link Session#accept}), so a late
 * frame of the lost process cannot be taken for the new one's. Proving and losing are
 * synchronized, so an id is lost (and the loss reported) before it can rejoin.
 */
final class Roster implements MembershipListener {

    static final String ROLE = "spindle.role";
    static final String WORKER = "spindle.worker";
    static final String COORDINATOR_ROLE = "coordinator";
    static final String WORKER_ROLE = "worker";
    /**
     * Every member announces its {@link HazelcastClusterSettings#maxFrameBytes} under this
     * attribute. A member sizes the frames it sends by its own limit and refuses those over its own
     * on arrival, silently for the sender: the coordinator admits only workers with its own limit
     * ({@link Admission}), or a task frame it may send could be dropped and its task wait for good.
     */
    static final String FRAME_LIMIT = "spindle.maxFrameBytes";

    private final Offences offences;
    /** The proven workers, their incarnations and which ids were lost, by the rules of {@link Incarnations}. */
    private final Incarnations<Member> workers = new Incarnations<>();
    private volatile Member coordinator;
    /** The session and sequence number of the last list of workers adopted ({@link #adopt}); under this. */
    private UUID listSession;
    private long listSeq;
    private volatile String refusal;
    private volatile String waiting;
    private volatile String unproven;
    private volatile IntConsumer onWorkerLost = id -> { };
    private volatile IntConsumer onIdFree = id -> { };
    private volatile Runnable onCoordinatorLost = () -> { };

    /** The frame limit member {@code m} announces, or -1 if none (or a malformed one). */
    static int frameLimit(Member m) {
        String limit = m.getAttribute(FRAME_LIMIT);
        try {
            return limit == null ? -1 : Integer.parseInt(limit);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    Roster(Offences offences) {
        this.offences = offences;
    }

    void onWorkerLost(IntConsumer callback) {
        this.onWorkerLost = callback;
    }

    /**
     * On the coordinator: called with an id once its process is lost or retired, after the loss is
     * reported, so that a claim waiting for the id is tried again; must not block.
     */
    void onIdFree(IntConsumer callback) {
        this.onIdFree = callback;
    }

    void onCoordinatorLost(Runnable callback) {
        this.onCoordinatorLost = callback;
    }

    Offences offences() {
        return offences;
    }

    /**
     * Records that {@code m} proved worker id {@code id} as {@code incarnation}, by
     * {@link Incarnations#prove}'s rules: a new id, or an id whose worker was lost, under another
     * incarnation (it rejoins); anything else changes nothing.
     */
    synchronized Incarnations.Proof prove(int id, Member m, long incarnation) {
        return workers.prove(id, m, incarnation);
    }

    /** The claim on worker {@code id} that waited for its process to be lost, once it is ({@link Incarnations#takeWaiting}). */
    Incarnations.Claim<Member> takeWaiting(int id) {
        return workers.takeWaiting(id);
    }

    /**
     * The incarnation of worker {@code id}'s current process, whose frames alone are accepted;
     * {@link Wire#COORDINATOR_INCARNATION} for the coordinator, and for an id never proven (whose
     * frames the callers refuse anyway).
     */
    long incarnation(int id) {
        return id == Wire.COORDINATOR ? Wire.COORDINATOR_INCARNATION : workers.current(id);
    }

    /** The id {@code m} proved, or -1. */
    int idOf(UUID member) {
        for (Map.Entry<Integer, Member> e : workers.live().entrySet()) {
            if (e.getValue().getUuid().equals(member)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /**
     * A worker adopts the coordinator's list of proven workers and their incarnations (members it
     * cannot see are skipped); the coordinator's word replaces what this worker knew of an id, so
     * an id that rejoined is reached at its new member and heard only from its new incarnation.
     * A list older than the last one adopted in the session (by the sequence number of its frame)
     * is not adopted.
     *
     * @param session the session of the list's frame
     * @param seq the list's frame's sequence number
     * @return whether this member's list showed every listed worker but itself: Hazelcast shows a
     *         new member in one member's list before another's, and a worker that skipped one must
     *         not answer the coordinator's probe as ready, or it is never asked again and never
     *         fetches from, nor serves, that worker
     */
    synchronized boolean adopt(Wire.Members proven, UUID session, long seq, com.hazelcast.cluster.Cluster cluster) {
        // the coordinator numbers its lists in the order it reads them (HazelcastCoordinator#allReady),
        // but this worker handles them on several threads: a list older than one adopted in the
        // session is only answered, or it took an id that rejoined back to its lost process
        boolean stale = session.equals(listSession) && seq < listSeq;
        if (!stale) {
            listSession = session;
            listSeq = seq;
        }
        int seen = 0;
        int others = 0;
        UUID self = cluster.getLocalMember().getUuid();
        for (Map.Entry<Integer, UUID> e : proven.workers().entrySet()) {
            if (!e.getValue().equals(self) && proven.incarnations().get(e.getKey()) != null) {
                others++;
            }
        }
        for (Member m : cluster.getMembers()) {
            for (Map.Entry<Integer, UUID> e : proven.workers().entrySet()) {
                Long incarnation = proven.incarnations().get(e.getKey());
                if (e.getValue().equals(m.getUuid()) && !m.localMember() && incarnation != null) {
                    if (!stale) {
                        workers.adopt(e.getKey(), m, incarnation);
                    }
                    seen++;
                }
            }
        }
        return seen >= others;
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

    /** Records why this worker's claim waits (the latest reason wins). */
    void waiting(String why) {
        waiting = why;
    }

    /**
     * Records a verdict that did not verify (the latest wins): proof of nothing, since any member
     * can send one, so not a refusal; said if no coordinator proves itself in time.
     */
    void unproven(String why) {
        unproven = why;
    }

    /** The latest verdict that did not verify, or {@code null}. */
    String unproven() {
        return unproven;
    }

    /** Why this worker's claim waits for its id to be free, or {@code null} if it never did. */
    String waiting() {
        return waiting;
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
        for (Map.Entry<Integer, Member> e : workers.live().entrySet()) {
            if (e.getValue().getUuid().equals(m.getUuid())) {
                loseIfHeldBy(e.getKey(), e.getValue());  // not a successor that proved the id since the snapshot
            }
        }
        Member c = coordinator;
        if (c != null && c.getUuid().equals(m.getUuid())) {
            onCoordinatorLost.run();          // the coordinator is never replaced in a session
        }
    }

    /**
     * On a worker: its coordinator is no longer in this member's view of the cluster, seen before
     * the membership event that says so was handled ({@link WorkerTransport}, a frame that could
     * not be sent): runs the coordinator-lost callback, as {@link #memberRemoved} does (which may
     * run it again: the callback acts once).
     */
    void coordinatorGone() {
        onCoordinatorLost.run();
    }

    /** Marks a worker lost (once per incarnation) and tells the callback; whether this call lost it. */
    synchronized boolean lose(int id) {
        if (workers.lose(id)) {
            onWorkerLost.accept(id);
            onIdFree.accept(id);
            return true;
        }
        return false;
    }

    /**
     * Marks worker {@code id} lost if {@code m} holds it: for a member proven after it left the
     * cluster, whose removal found no id of its to lose ({@link #memberRemoved}).
     */
    synchronized void loseIfHeldBy(int id, Member m) {
        if (m.equals(workers.holder(id))) {
            lose(id);
        }
    }

    /**
     * Marks worker {@code id} lost if its live process is {@code m} as {@code incarnation}: the
     * process a caller addressed (a send to it failed, the scheduler cut it off), not a successor
     * that proved the id since that one was lost.
     *
     * @return whether this call lost it (false if it was lost already, or is not the id's process)
     */
    synchronized boolean loseIfCurrent(int id, Member m, long incarnation) {
        return m.equals(workers.holder(id)) && workers.current(id) == incarnation && lose(id);
    }

    /** The live, proven member of worker {@code id}, or {@code null}. */
    Member worker(int id) {
        return workers.holder(id);
    }

    boolean isLost(int id) {
        return workers.isLost(id);
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

    /** The proven workers by id, by member UUID. */
    Map<Integer, UUID> provenWorkers() {
        Map<Integer, UUID> out = new java.util.TreeMap<>();
        workers.live().forEach((id, m) -> out.put(id, m.getUuid()));
        return out;
    }

    /** The proven workers and their incarnations, for the workers to adopt. */
    synchronized Wire.Members members() {
        Map<Integer, Long> inc = new java.util.TreeMap<>();
        Map<Integer, UUID> ids = provenWorkers();
        for (int id : ids.keySet()) {
            inc.put(id, incarnation(id));
        }
        return new Wire.Members(ids, inc);
    }
}
