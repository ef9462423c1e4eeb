/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.Incarnations;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;

/**
 * Which cluster members Spindle accepts, and in which role. Every member got in through TLS with
 * a certificate of the cluster's CA; its roles are its own claim, so the roster decides what a
 * claim is worth. (The sender address a message names is not authenticated either: Artery carries
 * it as the sending process writes it. The roster's checks by address are a first filter; what
 * proves a frame's sender is its seal, see {@link KeyExchange}.)
 * <ul>
 *   <li><b>One coordinator.</b> A worker follows the oldest member with the coordinator role
 *       that it sees Up, and never another: a coordinator that leaves is not replaced, a second
 *       one is refused (counted and logged) and its frames dropped. A coordinator that finds an
 *       older coordinator in its cluster refuses to start.
 *   <li><b>Workers by id and incarnation.</b> A worker member has the worker role, a
 *       {@code spindle-worker-<id>} role for an id in range and a
 *       {@code spindle-incarnation-<n>} role naming its process's random incarnation
 *       ({@link Incarnations#newIncarnation()}); every frame it sends carries the same number.
 *       Which member holds an id follows the shared rules of {@link Incarnations}: the first
 *       member to claim an id keeps it while it lives; once it is lost (or retired), a process
 *       with another incarnation may take the id again (a worker restarted under its id, at
 *       another address or at the same one), while the lost incarnation is refused for good; and
 *       a frame counts only if it comes from the id's member and carries its current
 *       incarnation ({@link #accepts}), so a late frame of the lost process is never taken for
 *       its successor's. A claim on an id that a live member holds is refused, and kept
 *       ({@link Incarnations.Proof#WAITING}): if the holder is lost later (the old process of a
 *       same-address restart is removed only once the new one asks to join), the claim is tried
 *       again ({@link Incarnations#takeWaiting}).
 *   <li><b>One message limit.</b> Every member announces its {@code maxMessageBytes} in a
 *       {@code spindle-message-limit-<n>} role. A member sizes the frames it sends by its own
 *       limit and refuses those over its own, so a frame between members with different limits
 *       could be sent and then dropped on arrival, and the task it carried would wait for good:
 *       the coordinator refuses a worker whose limit is not its own. It tells the worker
 *       nothing (it tells no member it refuses anything), but the worker sees the coordinator's
 *       role and leaves, with the reason ({@link #refusal()}), instead of idling: once it is Up,
 *       so that the coordinator has seen it join and counted the refusal ({@link #joining}).
 *   <li>Anything else (no Spindle role) is refused.
 * </ul>
 * A member is matched to an id by its address and incarnation, never by its address alone: the
 * removal of an old process must not take a successor at the same address with it. Membership
 * events arrive on the endpoint actor; queries come from any thread.
 */
final class Roster {

    static final String COORDINATOR_ROLE = "spindle-coordinator";
    static final String WORKER_ROLE = "spindle-worker";
    static final String WORKER_ID_PREFIX = "spindle-worker-";
    static final String INCARNATION_PREFIX = "spindle-incarnation-";
    static final String MESSAGE_LIMIT_PREFIX = "spindle-message-limit-";

    private final Address self;
    private final boolean coordinatorSide;
    private volatile int workerIds;
    private final Refusals refused;
    private final Incarnations<Address> workers = new Incarnations<>();
    private final Set<Address> lostAddresses = ConcurrentHashMap.newKeySet();
    private final Set<UniqueAddress> refusedMembers = ConcurrentHashMap.newKeySet();
    private volatile Address coordinator;
    private volatile boolean coordinatorGone;
    private volatile Address olderCoordinator;
    private volatile LostWorker onWorkerLost = (id, address, leaving) -> { };
    private volatile IntConsumer onWorkerFenced = id -> { };
    private volatile BiConsumer<Integer, Address> onWorkerRetired = (id, address) -> { };
    private volatile Consumer<Address> onWorkerGone = address -> { };
    private volatile Runnable onCoordinatorGone = () -> { };
    /** On a worker: why the coordinator it follows refuses it, or {@code null}. */
    private volatile String refusal;
    private volatile Runnable onRefused = () -> { };
    private volatile Consumer<Address> onMemberGone = address -> { };
    private volatile ObjIntConsumer<Incarnations.Proof> onWorkerUp = (proof, id) -> { };

    /**
     * @param coordinatorSide whether this roster belongs to the coordinator
     * @param workerIds the number of worker ids the coordinator accepts (any on a worker)
     */
    Roster(Address self, boolean coordinatorSide, int workerIds, Refusals refused) {
        this.self = self;
        this.coordinatorSide = coordinatorSide;
        this.workerIds = workerIds;
        this.refused = refused;
    }

    /** The roles of worker {@code id}'s process of incarnation {@code incarnation}. */
    static List<String> workerRoles(int id, long incarnation) {
        return List.of(WORKER_ROLE, WORKER_ID_PREFIX + id, INCARNATION_PREFIX + incarnation);
    }

    /** The worker id a member claims, or -1. */
    static int workerId(Member m) {
        if (!m.hasRole(WORKER_ROLE)) {
            return -1;
        }
        for (String role : m.getRoles()) {
            if (role.startsWith(WORKER_ID_PREFIX)) {
                try {
                    return Integer.parseInt(role.substring(WORKER_ID_PREFIX.length()));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The incarnation a worker member claims, or {@link Incarnations#NONE}. */
    static long incarnation(Member m) {
        for (String role : m.getRoles()) {
            if (role.startsWith(INCARNATION_PREFIX)) {
                try {
                    return Long.parseLong(role.substring(INCARNATION_PREFIX.length()));
                } catch (NumberFormatException e) {
                    return Incarnations.NONE;
                }
            }
        }
        return Incarnations.NONE;
    }

    /** The message limit a member announces, or -1 if it announces none (or a malformed one). */
    static int messageLimit(Member m) {
        for (String role : m.getRoles()) {
            if (role.startsWith(MESSAGE_LIMIT_PREFIX)) {
                try {
                    return Integer.parseInt(role.substring(MESSAGE_LIMIT_PREFIX.length()));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** Told of a lost worker on the coordinator. */
    @FunctionalInterface
    interface LostWorker {
        /**
         * @param id the worker's id
         * @param address its member's address, {@code null} if it never joined
         * @param leaving whether Pekko is already taking the member out (it is exiting, downed or
         *     removed): downing it again would only cut its own orderly shutdown short
         */
        void lost(int id, Address address, boolean leaving);
    }

    /** Called once per incarnation with a lost worker. */
    void onWorkerLost(LostWorker callback) {
        this.onWorkerLost = callback;
    }

    /**
     * On the coordinator: called with a lost worker's id under the roster's lock, before the loss
     * is reported and before a successor can prove the id (the coordinator's transport fences it).
     */
    void onWorkerFenced(IntConsumer callback) {
        this.onWorkerFenced = callback;
    }

    /** On the coordinator: called with a retired worker's id and address once it is cut off. */
    void onWorkerRetired(BiConsumer<Integer, Address> callback) {
        this.onWorkerRetired = callback;
    }

    /**
     * On the coordinator: called with how each worker was registered ({@link Incarnations.Proof#NEW},
     * or {@link Incarnations.Proof#REJOINED} for a new process of a lost id) and its id; must not block.
     */
    void onWorkerUp(ObjIntConsumer<Incarnations.Proof> callback) {
        this.onWorkerUp = callback;
    }

    /** On a worker: called with the address of another worker that left the cluster. */
    void onWorkerGone(Consumer<Address> callback) {
        this.onWorkerGone = callback;
    }

    /**
     * On a worker: called once, when the coordinator it follows leaves the cluster (exits, is
     * downed or removed), or is handled as gone ({@link #coordinatorLost}); it is never replaced.
     * Runs on the endpoint actor, or on the thread whose report could not be sent; must not block.
     */
    void onCoordinatorGone(Runnable callback) {
        this.onCoordinatorGone = callback;
    }

    /**
     * On a worker: called once, on the endpoint actor, when it learns that the coordinator it
     * follows refuses it ({@link #refusal()}); must not block.
     */
    void onRefused(Runnable callback) {
        this.onRefused = callback;
    }

    /**
     * On a worker: why the coordinator it follows refuses it, or {@code null}. Only a refusal the
     * worker can tell from the coordinator's roles (a message limit other than its own): the
     * coordinator says nothing to a member it refuses.
     */
    String refusal() {
        return refusal;
    }

    /**
     * Called with the address of every member that leaves the cluster (exits, is downed, removed
     * or, on the coordinator, unreachable), whatever its role and whether or not it was accepted:
     * what is kept per member address is dropped here. Called once the roster has marked the member
     * gone (a worker lost, the coordinator gone), so that a sender that looks the member up after
     * this finds it gone and keeps nothing of it again. Runs on the endpoint actor; must not block.
     */
    void onMemberGone(Consumer<Address> callback) {
        this.onMemberGone = callback;
    }

    /** On a worker: whether the coordinator it followed has left the cluster. */
    boolean coordinatorGone() {
        return coordinatorGone;
    }

    /** How many worker ids the coordinator accepts; set before membership events arrive. */
    void workerIds(int n) {
        this.workerIds = n;
    }

    /**
     * Member {@code m} is Up.
     *
     * @param members the current cluster view, to find the oldest coordinator
     * @param selfMember this member as the cluster sees it
     */
    synchronized void up(Member m, Iterable<Member> members, Member selfMember) {
        Address a = m.address();
        if (a.equals(self)) {
            return;
        }
        if (m.hasRole(COORDINATOR_ROLE)) {
            coordinatorUp(m, members, selfMember);
            return;
        }
        int id = workerId(m);
        long incarnation = incarnation(m);
        if (id < 0) {
            refuse(m, "no Spindle role (roles " + m.getRoles() + ")");
        } else if (id >= workerIds) {
            refuse(m, "worker id " + id + " is outside 0.." + (workerIds - 1));
        } else if (incarnation == Incarnations.NONE) {
            refuse(m, "worker id " + id + " without an incarnation role");
        } else if (coordinatorSide && messageLimit(m) != messageLimit(selfMember)) {
            refuse(m, limitReason(m, selfMember));
        } else if (!workers.accepts(id, a, incarnation)) {
            Address holder = workers.holder(id);
            Incarnations.Proof proof = workers.prove(id, a, incarnation);
            if (proof == Incarnations.Proof.TAKEN || proof == Incarnations.Proof.WAITING) {
                // a waiting claim is kept by the register, and tried again if the holder is lost
                refuse(m, holder == null ? "incarnation " + incarnation + " of worker id " + id
                        + " was lost; a restarted worker rejoins as a new incarnation"
                        : "worker id " + id + " is taken by " + holder);
            } else {
                onWorkerUp.accept(proof, id);
            }
        }
    }

    private void coordinatorUp(Member m, Iterable<Member> members, Member selfMember) {
        Address a = m.address();
        if (coordinatorSide) {
            // a member not yet Up counts as younger than every Up member, so a coordinator that
            // is still joining sees the cluster's coordinator as older, as it is
            if (m.isOlderThan(selfMember)) {
                olderCoordinator = a;          // this one is the second: start() refuses to go on
            } else {
                refuse(m, "a second coordinator; this cluster has one");
            }
            return;
        }
        if (coordinator == null && !coordinatorGone) {
            Member oldest = m;
            for (Member o : members) {
                if (o.status() == MemberStatus.up() && o.hasRole(COORDINATOR_ROLE) && o.isOlderThan(oldest)) {
                    oldest = o;
                }
            }
            coordinator = oldest.address();
            int theirs = messageLimit(oldest);
            int ours = messageLimit(selfMember);
            if (theirs != ours) {
                // the coordinator refuses this worker for it (joining() and up(), on its side)
                // and tells it nothing, so it would idle for good; both limits are roles, which
                // every member sees, so this worker knows the verdict as surely as the coordinator
                // does, and learns nothing by it that the gossip did not show it already
                refusal = "the coordinator at " + PekkoConfigs.hostPort(coordinator) + " has a message limit of "
                        + theirs + " bytes, this worker " + ours + ": every member needs the same maxMessageBytes, "
                        + "so the coordinator refuses this worker";
                onRefused.run();
            }
        }
        if (!a.equals(coordinator)) {
            refuse(m, "a second coordinator; this worker follows " + (coordinatorGone ? "a coordinator that left" : coordinator));
        }
    }

    /**
     * Member {@code m} is joining. A second coordinator is refused as soon as it asks to join: it
     * may leave again before it is ever Up (a coordinator that finds it is the second one does).
     * So is a worker whose message limit is not this coordinator's: it sees the mismatch too and
     * leaves once Up, and its gossip may reach this coordinator only with it leaving, never Up;
     * it cannot be Up before this coordinator has seen it join (Up needs every member to have
     * seen it), so it is counted and logged here.
     *
     * @param selfMember this member as the cluster sees it
     */
    void joining(Member m, Member selfMember) {
        if (!coordinatorSide || m.address().equals(self)) {
            return;
        }
        if (m.hasRole(COORDINATOR_ROLE)) {
            refuse(m, "a second coordinator; this cluster has one");
        } else if (workerId(m) >= 0 && messageLimit(m) != messageLimit(selfMember)) {
            refuse(m, limitReason(m, selfMember));
        }
    }

    private static String limitReason(Member m, Member selfMember) {
        return "worker id " + workerId(m) + " has a message limit of " + messageLimit(m) + " bytes, this coordinator "
                + messageLimit(selfMember) + ": every member needs the same maxMessageBytes";
    }

    /** Member {@code m} is unreachable: the coordinator gives its worker up, a worker waits for removal. */
    void unreachable(Member m) {
        if (coordinatorSide) {
            // unreachable members hold up convergence, so even a leaving one is downed
            gone(m, m.status() == MemberStatus.down() || m.status() == MemberStatus.removed());
        }
    }

    /** Member {@code m} left the cluster (removed, downed, exited): Pekko is taking it out. */
    void removed(Member m) {
        gone(m, true);
    }

    private synchronized void gone(Member m, boolean leaving) {
        Address a = m.address();
        int id = workerId(m);
        if (id >= 0) {
            workers.withdraw(id, a, incarnation(m));
        }
        if (id >= 0 && workers.accepts(id, a, incarnation(m))) {
            // this process, not a successor at the same address
            if (coordinatorSide) {
                lose(id, leaving);
            } else {
                workers.lose(id);
                lostAddresses.add(a);
                onWorkerGone.accept(a);
                retryWaiting(id);
            }
        }
        if (m.hasRole(COORDINATOR_ROLE)) {
            coordinatorLost(a);
        }
        if (!a.equals(self)) {
            // last: a sender looks the member up here, then sends, which keeps its endpoint again if
            // it was forgotten; marked gone first, a send racing the departure no longer finds it
            onMemberGone.accept(a);
        }
        if (m.status() == MemberStatus.removed()) {
            // its last event: Artery quarantines the process, so no frame of it arrives again, and
            // what is kept of it by address would stay for good, one entry per member under churn
            refusedMembers.remove(m.uniqueAddress());
            if (workers.idOf(a) < 0) {
                lostAddresses.remove(a);
            }
        }
    }

    /**
     * On a worker: the coordinator at {@code a}, if it is the one this worker follows, is gone
     * (it left the cluster, a frame to it or from it was lost, or a report cannot be sent):
     * {@link #onCoordinatorGone} once.
     */
    synchronized void coordinatorLost(Address a) {
        if (a.equals(coordinator)) {
            coordinatorGone = true;
            coordinator = null;               // so the later events of its leaving do not call again
            onCoordinatorGone.run();
        }
    }

    /** Marks a worker lost (once per incarnation) and tells the callback. */
    void lose(int id) {
        lose(id, false);
    }

    /**
     * Marks worker {@code id} lost if its live process is {@code a} as {@code incarnation}: the
     * process a caller addressed (the scheduler cut it off, a frame to it was lost), not a
     * successor that proved the id since that one was lost (as the Hazelcast transport's roster
     * does).
     *
     * @return whether that process was the id's live one, and is lost now
     */
    synchronized boolean loseIfCurrent(int id, Address a, long incarnation) {
        if (!workers.accepts(id, a, incarnation)) {
            return false;
        }
        lose(id, false);
        return true;
    }

    private synchronized void lose(int id, boolean leaving) {
        Address a = workers.holder(id);
        if (workers.lose(id)) {
            if (a != null) {
                lostAddresses.add(a);
            }
            onWorkerFenced.accept(id);
            onWorkerLost.lost(id, a, leaving);
            retryWaiting(id);
        }
    }

    /**
     * Cuts a retired worker off as a lost one (nothing more to or from it; a new process may take
     * the id), without reporting a loss: the scheduler removed it, and the callback lets it leave.
     * A claim that waited for the id (a replacement started while the worker retired) is tried
     * again now, as after a loss: the retired process's removal later finds the id no longer its
     * own, and would leave that claim waiting for good.
     */
    synchronized void retire(int id, Address a, long incarnation) {
        if (workers.accepts(id, a, incarnation) && workers.lose(id)) {
            lostAddresses.add(a);
            onWorkerRetired.accept(id, a);       // first: it reads the retired process's incarnation
            retryWaiting(id);
        }
    }

    /** A claim kept while the id's holder was live, tried again now that it is lost. */
    private void retryWaiting(int id) {
        Incarnations.Claim<Address> claim = workers.takeWaiting(id);
        if (claim != null) {
            Incarnations.Proof proof = workers.prove(id, claim.holder(), claim.incarnation());
            if (proof == Incarnations.Proof.NEW || proof == Incarnations.Proof.REJOINED) {
                onWorkerUp.accept(proof, id);
            }
        }
    }

    /** Counts (and logs) a member once, however many of its events arrive. */
    private void refuse(Member m, String why) {
        if (refusedMembers.add(m.uniqueAddress())) {
            refused.refuse("member " + m.address(), why);
        }
    }

    /** The live worker {@code id}'s address, or {@code null}. */
    Address worker(int id) {
        return workers.holder(id);
    }

    /** Whether a frame from {@code a} carrying {@code incarnation} comes from worker {@code id}'s current process. */
    boolean accepts(int id, Address a, long incarnation) {
        return workers.accepts(id, a, incarnation);
    }

    /**
     * Worker {@code id}'s live process, its address and incarnation read as one (a new process
     * may take the id between two separate reads), or {@code null}.
     */
    Incarnations.Claim<Address> process(int id) {
        synchronized (workers) {              // Incarnations' methods hold this same lock
            Address a = workers.holder(id);
            return a == null ? null : new Incarnations.Claim<>(a, workers.current(id));
        }
    }

    /**
     * The live workers' processes, each id's incarnation, read as one: what a worker tells its
     * coordinator's probe it knows. Only ids a coordinator accepts ({@link ClusterCoordinator#MAX_WORKERS}):
     * a worker registers any id, and members claiming others could make the answer too long to read.
     */
    Map<Integer, Long> peers() {
        synchronized (workers) {              // Incarnations' methods hold this same lock
            Map<Integer, Long> peers = new TreeMap<>();
            for (int id : workers.live().keySet()) {
                if (id < ClusterCoordinator.MAX_WORKERS) {
                    peers.put(id, workers.current(id));
                }
            }
            return peers;
        }
    }

    /** The current incarnation of worker {@code id} ({@link Incarnations#NONE} if never registered). */
    long incarnation(int id) {
        return workers.current(id);
    }

    /** The id of the live worker at {@code a}, or -1. */
    int workerAt(Address a) {
        return workers.idOf(a);
    }

    /** Whether {@code a} is a live worker's address. */
    boolean isWorker(Address a) {
        return workers.idOf(a) >= 0;
    }

    /**
     * Whether {@code a} is a member this side sends to: a live worker, or the coordinator this
     * worker follows. Marked otherwise before {@link #onMemberGone} is told of its leaving.
     */
    boolean sendsTo(Address a) {
        return workers.idOf(a) >= 0 || a.equals(coordinator);
    }

    /** Whether {@code a} belonged to a worker that is gone (and not yet removed from the cluster). */
    boolean wasWorker(Address a) {
        return lostAddresses.contains(a);
    }

    /** The members this roster remembers by address (departed workers, refused members); for tests. */
    int addressesHeld() {
        return lostAddresses.size() + refusedMembers.size();
    }

    boolean isLost(int id) {
        return workers.isLost(id);
    }

    /** Live workers. */
    int workers() {
        return workers.size();
    }

    /** The live workers' ids, in order. */
    List<Integer> liveIds() {
        return List.copyOf(workers.live().keySet());
    }

    /** The coordinator this worker follows, or {@code null}. */
    Address coordinator() {
        return coordinator;
    }

    /** A coordinator older than this one, if this coordinator found one. */
    Address olderCoordinator() {
        return olderCoordinator;
    }
}
