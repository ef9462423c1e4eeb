/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.Incarnations;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The coordinator's side of the {@link Handshake}: it challenges every member that joins, proves
 * the workers into the {@link Roster} and refuses the rest, each refusal counted and logged once
 * (a member claiming to be a coordinator, a member that is not a Spindle worker or answers the
 * challenge with something other than bytes, a wrong proof, a
 * worker id that is taken, a lost incarnation, or outside the ids a cluster may have, or a frame
 * limit other than the coordinator's: see {@link Roster#FRAME_LIMIT}). Workers may join
 * after the start with ids beyond the initial ones, and a restarted worker process may rejoin
 * under the id of a lost one, as a new incarnation. The coordinator's start-up loop starts
 * handshakes with the members already there ({@link #admitAll}); a member joining later is
 * challenged by Admission itself.
 *
 * <p><b>Concurrency.</b> A handshake is two executor calls to the member (the challenge, then the
 * verdict), and any process that can join the Hazelcast cluster can take such a call and never
 * answer it, or answer late. So no thread waits for an answer and no lock is held across one:
 * each call's answer, or its absence after {@value #STEP_MILLIS} ms, moves that member's handshake
 * on as a short step on Admission's own thread, which runs nothing but such steps, the timeouts
 * and the retries. The handshakes of different members therefore run side by side, and a member
 * that stalls costs only its own tries, never another member's admission. A member has at most
 * one handshake in flight: the start-up loop skips a member that has one, and a chain of tries
 * (below) follows it, so a try begun before the state changed (an id lost) is followed by a fresh
 * one. {@link #admitAll} starts handshakes and returns; the start-up loop sees them settle in the
 * roster.
 *
 * <p><b>Asking again.</b> A member that joins later is challenged until it is settled (proven, or
 * refused for good) or leaves the cluster, after 250 ms, then twice as long each time, up to
 * {@value #MAX_RETRY_MILLIS} ms between the end of a try and the next; one chain of tries per
 * member (a new chain replaces the one before). Two kinds of member need it:
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
    /** The longest wait for a member's answer to one handshake step. */
    static final int STEP_MILLIS = 5_000;

    private final FrameCodec codec;
    private final Roster roster;
    private final Session session;
    private final HazelcastInstance instance;
    private final int workers;
    private volatile java.util.function.ObjIntConsumer<Incarnations.Proof> onProven = (proof, id) -> { };
    /** Members proven or refused: never challenged again. */
    private final Set<UUID> settled = ConcurrentHashMap.newKeySet();
    /** The handshake in flight with each member, at most one; it completes when that try ends. */
    private final Map<UUID, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();
    /** The chain of tries of each member joined later and not settled yet. */
    private final Map<UUID, Chain> chains = new ConcurrentHashMap<>();
    /**
     * Admission's thread: the handshakes' steps, their timeouts and the retries, each short and
     * none waiting on the network, so one thread serves every member.
     */
    private final ScheduledThreadPoolExecutor steps = new ScheduledThreadPoolExecutor(1, r -> {
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
        steps.setRemoveOnCancelPolicy(true);  // a step answered in time drops its timeout at once
    }

    /**
     * Called with each worker proven ({@link Incarnations.Proof#NEW} or a rejoin) and its id, on
     * Admission's thread: it must not block, or every handshake waits for it.
     */
    void onProven(java.util.function.ObjIntConsumer<Incarnations.Proof> callback) {
        this.onProven = callback;
    }

    /**
     * Starts a handshake with every member not settled and not in one already; does not wait for
     * the answers (the caller looks at the roster, and calls again to ask a member that did not answer).
     */
    void admitAll() {
        for (Member m : instance.getCluster().getMembers()) {
            if (!m.localMember() && !settled.contains(m.getUuid())) {
                begin(m);
            }
        }
    }

    @Override
    public void memberAdded(MembershipEvent event) {
        chain(event.getMember());
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        UUID left = event.getMember().getUuid();
        settled.remove(left);                 // a claim of its that waits is dropped when it is taken back
        Chain c = chains.remove(left);
        if (c != null) {
            c.stop();
        }
    }

    /**
     * Worker {@code id}'s process was lost: a claim that waited for it is tried again now. Called
     * after the roster has marked the id lost, so the claim proves as a rejoin.
     */
    void idLost(int id) {
        Incarnations.Claim<Member> claim = roster.takeWaiting(id);
        if (claim != null) {
            chain(claim.holder());            // a claimant that left is skipped there
        }
    }

    /** Stops asking members (the coordinator is closing); a handshake in flight goes no further. */
    void close() {
        steps.shutdownNow();
    }

    /** Starts a chain of tries of {@code m} in place of any before: the first at once. */
    private void chain(Member m) {
        Chain c = new Chain(m);
        Chain before = chains.put(m.getUuid(), c);
        if (before != null) {
            before.stop();                    // one chain of tries per member
        }
        c.schedule(0, FIRST_RETRY_MILLIS);
    }

    /**
     * One member's tries, until it is settled or gone: after each, the next after a pause that
     * doubles. A chain that another replaced, or that was stopped, schedules nothing more.
     */
    private final class Chain {

        private final Member member;
        private volatile ScheduledFuture<?> next;

        Chain(Member member) {
            this.member = member;
        }

        private boolean current() {
            return chains.get(member.getUuid()) == this;
        }

        /** Tries after {@code delay} ms; if that leaves the member unsettled, again after {@code pause} ms. */
        void schedule(long delay, long pause) {
            if (!current()) {
                return;
            }
            try {
                next = steps.schedule(() -> attempt(pause), delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closed) {
                // the coordinator is closing: nothing to admit
            }
        }

        void stop() {
            ScheduledFuture<?> n = next;
            if (n != null) {
                n.cancel(false);              // a try already scheduled sees it is not current and ends
            }
        }

        private void attempt(long pause) {
            UUID id = member.getUuid();
            try {
                if (!current()) {
                    return;
                }
                if (settled.contains(id) || !instance.getLifecycleService().isRunning()
                        || !instance.getCluster().getMembers().contains(member)) {
                    chains.remove(id, this);
                    return;
                }
                CompletableFuture<Void> mine = begin(member);
                if (mine == null) {
                    // one is in flight (the start-up loop's, or one begun before the id was lost):
                    // it may have used the claim's old state, so a fresh try follows it
                    CompletableFuture<Void> running = inFlight.get(id);
                    if (running == null) {
                        schedule(0, pause);
                    } else {
                        running.whenComplete((v, e) -> schedule(0, pause));
                    }
                    return;
                }
                mine.whenComplete((v, e) -> {
                    if (settled.contains(id)) {
                        chains.remove(id, this);
                    } else {
                        schedule(pause, Math.min(2 * pause, MAX_RETRY_MILLIS));
                    }
                });
            } catch (RuntimeException e) {
                // the coordinator is closing, or the member left: nothing to admit
            }
        }
    }

    /**
     * Starts one handshake with {@code m} on Admission's thread; {@code null} if one is in flight
     * already. The future completes when the try ends: settled, or to be asked again.
     */
    private CompletableFuture<Void> begin(Member m) {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (inFlight.putIfAbsent(m.getUuid(), mine) != null) {
            return null;
        }
        try {
            steps.execute(() -> step(m, mine, () -> challenge(m, mine)));
        } catch (RejectedExecutionException closed) {
            end(m, mine);
        }
        return mine;
    }

    /** Ends {@code m}'s try: another may begin. */
    private void end(Member m, CompletableFuture<Void> done) {
        inFlight.remove(m.getUuid(), done);
        done.complete(null);
    }

    /** Runs one step of {@code m}'s try; one that fails ends the try (the member is asked again). */
    private void step(Member m, CompletableFuture<Void> done, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            end(m, done);
        }
    }

    /** The first step: refuses by role, or challenges the worker. */
    private void challenge(Member m, CompletableFuture<Void> done) {
        if (settled.contains(m.getUuid())) {
            end(m, done);
            return;
        }
        String role = m.getAttribute(Roster.ROLE);
        if (Roster.COORDINATOR_ROLE.equals(role)) {
            refuse(m, Offences.Kind.REFUSED_COORDINATOR, "a second coordinator in this session");
            end(m, done);
            return;
        }
        if (!Roster.WORKER_ROLE.equals(role)) {
            refuse(m, Offences.Kind.REFUSED_MEMBER, "not a Spindle worker");
            end(m, done);
            return;
        }
        UUID self = instance.getCluster().getLocalMember().getUuid();
        byte[] nc = Handshake.nonce();
        call(m, done, new Handshake.Challenge(session.id(), self, m.getUuid(), nc).encode(),
                answer -> judge(m, done, self, nc, answer), other -> {
                    // Spindle's code answers with bytes, or null before its side is installed: this
                    // member runs other code, which no try will change
                    refuse(m, Offences.Kind.REFUSED_MEMBER, "answered the challenge with a "
                            + other.getClass().getName() + ", not a Spindle worker");
                    end(m, done);
                });
    }

    /** The second step, with the worker's answer: proves it into the roster or not, and sends the verdict. */
    private void judge(Member m, CompletableFuture<Void> done, UUID self, byte[] nc, byte[] answer) {
        Handshake.Response r = Handshake.response(answer);
        if (r == null) {
            end(m, done);                     // no answer yet (or not a Spindle member): try again later
            return;
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
        } else if (Roster.frameLimit(m) != Roster.frameLimit(instance.getCluster().getLocalMember())) {
            // before the roster claims the id: this process can never serve, whatever its id
            reason = "a frame limit of " + Roster.frameLimit(m) + " bytes, the coordinator's is "
                    + Roster.frameLimit(instance.getCluster().getLocalMember())
                    + ": every member needs the same maxFrameBytes";
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
        if ((proof == Incarnations.Proof.NEW || proof == Incarnations.Proof.REJOINED)
                && !instance.getCluster().getMembers().contains(m)) {
            // it left with its answer on the way: its removal found no id of its to lose, so it is
            // lost here (Hazelcast updates the member list before it tells the listeners, so a
            // removal after this look finds the id proven)
            roster.loseIfHeldBy(r.worker(), m);
        }
        byte[] mac = Handshake.verdictMac(codec, session.id(), self, m.getUuid(), nc, r.nonce(), r.worker(),
                r.incarnation(), outcome, reason);
        Outcome told = new Outcome(proof, r.worker(), outcome, reason);
        call(m, done, new Handshake.Verdict(session.id(), self, r.nonce(), outcome, reason, mac).encode(),
                adopted -> settle(m, done, told, adopted),
                // it proved the secret: taken as no answer (asked again if accepted), not refused
                other -> settle(m, done, told, null));
    }

    /** What the coordinator told a worker that proved an id, or failed to. */
    private record Outcome(Incarnations.Proof proof, int worker, byte outcome, String reason) {
    }

    /** The last step, with the worker's answer to the verdict; ends the try. */
    private void settle(Member m, CompletableFuture<Void> done, Outcome v, byte[] adopted) {
        if (v.outcome() == Handshake.ACCEPTED) {
            onProven.accept(v.proof(), v.worker());
            if (adopted != null && adopted.length == 0) {
                settled.add(m.getUuid());     // it adopted this coordinator; else it is asked again
                forgetIfGone(m);
            }
        } else if (v.outcome() == Handshake.REFUSED) {
            refuse(m, Offences.Kind.REFUSED_MEMBER, v.reason());
        }
        end(m, done);
    }

    private void refuse(Member m, Offences.Kind kind, String why) {
        settled.add(m.getUuid());
        roster.offences().record(kind, m.getUuid(), why + " (member at " + m.getAddress() + ")");
        forgetIfGone(m);
    }

    /**
     * Forgets {@code m}, just settled, if it has left: its removal may have come first (it
     * answered, held the verdict call and left), found nothing to forget, and kept, its settled
     * mark and its offence stayed for good, one more per member that joins and leaves so.
     * Hazelcast updates the member list before it tells the listeners, so a removal after this
     * look finds them, and one before it is seen here.
     */
    private void forgetIfGone(Member m) {
        if (!instance.getCluster().getMembers().contains(m)) {
            settled.remove(m.getUuid());
            roster.offences().forget(m.getUuid());
        }
    }

    /**
     * Sends {@code m} one handshake message without waiting for it; {@code next} runs on
     * Admission's thread with the answer, {@code null} if the call failed or took over
     * {@value #STEP_MILLIS} ms (a late answer is dropped); {@code otherType} runs there instead
     * with an answer that is not a {@code byte[]}, which only a member running other code gives.
     */
    private void call(Member m, CompletableFuture<Void> done, byte[] message, Consumer<byte[]> next,
                      Consumer<Object> otherType) {
        CompletableFuture<Object> answer = new CompletableFuture<>();
        try {
            // typed Object, not byte[]: the member chooses the type of its answer, and the cast of
            // a callback typed byte[] threw on Hazelcast's thread, so the step waited for its timeout
            @SuppressWarnings("unchecked")
            Callable<Object> handshake = (Callable<Object>) (Callable<?>) new HandshakeCall(message);
            instance.getExecutorService(HazelcastConfigs.FETCHES).submitToMember(handshake, m,
                    new ExecutionCallback<Object>() {
                        @Override
                        public void onResponse(Object response) {
                            answer.complete(response);
                        }

                        @Override
                        public void onFailure(Throwable t) {
                            answer.complete(null);
                        }
                    });
            ScheduledFuture<?> late = steps.schedule(() -> answer.complete(null), STEP_MILLIS, TimeUnit.MILLISECONDS);
            answer.whenComplete((a, e) -> late.cancel(false));
        } catch (RuntimeException e) {
            answer.complete(null);            // not a member any more, or the coordinator is closing
        }
        // Hazelcast completes the call on its own threads: the step runs on Admission's
        answer.whenCompleteAsync((a, e) -> step(m, done, () -> {
            if (a == null || a instanceof byte[]) {
                next.accept((byte[]) a);
            } else {
                otherType.accept(a);
            }
        }), steps).exceptionally(closed -> {
            end(m, done);                     // Admission's thread is shut down (or the step threw an Error)
            return null;
        });
    }
}
