/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;

/**
 * Which cluster members Spindle accepts, and in which role. Every member got in through TLS with
 * a certificate of the cluster's CA, so its cluster address is authenticated; its roles are its
 * own claim, so the roster decides what a claim is worth:
 * <ul>
 *   <li><b>One coordinator.</b> A worker follows the oldest member with the coordinator role
 *       that it sees Up, and never another: a coordinator that leaves is not replaced, a second
 *       one is refused (counted and logged) and its frames dropped. A coordinator that finds an
 *       older coordinator in its cluster refuses to start.
 *   <li><b>Workers by id.</b> The coordinator accepts a member with the worker role and a
 *       {@code spindle-worker-<id>} role for an id in range; the first member to claim an id keeps
 *       it, a lost id stays lost (a member returning with it is refused).
 *   <li>Anything else (no Spindle role) is refused.
 * </ul>
 * Membership events arrive on the endpoint actor; queries come from any thread.
 */
final class Roster {

    static final String COORDINATOR_ROLE = "spindle-coordinator";
    static final String WORKER_ROLE = "spindle-worker";
    static final String WORKER_ID_PREFIX = "spindle-worker-";

    private final Address self;
    private final boolean coordinatorSide;
    private volatile int workerIds;
    private final Refusals refused;
    private final Map<Integer, Address> workers = new ConcurrentHashMap<>();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private final Set<Address> lostAddresses = ConcurrentHashMap.newKeySet();
    private final Set<Address> refusedAddresses = ConcurrentHashMap.newKeySet();
    private volatile Address coordinator;
    private volatile boolean coordinatorGone;
    private volatile Address olderCoordinator;
    private volatile BiConsumer<Integer, Address> onWorkerLost = (id, address) -> { };
    private volatile Consumer<Address> onWorkerGone = address -> { };
    private volatile java.util.function.IntConsumer onWorkerUp = id -> { };

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

    static List<String> workerRoles(int id) {
        return List.of(WORKER_ROLE, WORKER_ID_PREFIX + id);
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

    /** Called with a lost worker's id and its address ({@code null} if it never joined). */
    void onWorkerLost(BiConsumer<Integer, Address> callback) {
        this.onWorkerLost = callback;
    }

    /** On the coordinator: called with the id of each worker registered; must not block. */
    void onWorkerUp(java.util.function.IntConsumer callback) {
        this.onWorkerUp = callback;
    }

    /** On a worker: called with the address of another worker that left the cluster. */
    void onWorkerGone(Consumer<Address> callback) {
        this.onWorkerGone = callback;
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
        if (id < 0) {
            refuse(a, "no Spindle role (roles " + m.getRoles() + ")");
        } else if (id >= workerIds) {
            refuse(a, "worker id " + id + " is outside 0.." + (workerIds - 1));
        } else if (lost.contains(id) || lostAddresses.contains(a)) {
            refuse(a, "worker id " + id + " was lost; a lost worker cannot rejoin");
        } else {
            Address old = workers.putIfAbsent(id, a);
            if (old != null && !old.equals(a)) {
                refuse(a, "worker id " + id + " is taken by " + old);
            } else if (old == null) {
                onWorkerUp.accept(id);
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
                refuse(a, "a second coordinator; this cluster has one");
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
        }
        if (!a.equals(coordinator)) {
            refuse(a, "a second coordinator; this worker follows " + (coordinatorGone ? "a coordinator that left" : coordinator));
        }
    }

    /**
     * Member {@code m} is joining. A second coordinator is refused as soon as it asks to join: it
     * may leave again before it is ever Up (a coordinator that finds it is the second one does).
     */
    void joining(Member m) {
        if (m.hasRole(COORDINATOR_ROLE) && !m.address().equals(self) && coordinatorSide) {
            refuse(m.address(), "a second coordinator; this cluster has one");
        }
    }

    /** Member {@code m} is unreachable: the coordinator gives its worker up, a worker waits for removal. */
    void unreachable(Member m) {
        if (coordinatorSide) {
            removed(m);
        }
    }

    /** Member {@code m} left the cluster (removed, downed, exited). */
    synchronized void removed(Member m) {
        Address a = m.address();
        for (Map.Entry<Integer, Address> e : workers.entrySet()) {
            if (e.getValue().equals(a)) {
                if (coordinatorSide) {
                    lose(e.getKey());
                } else {
                    workers.remove(e.getKey(), a);
                    lostAddresses.add(a);
                    onWorkerGone.accept(a);
                }
            }
        }
        if (a.equals(coordinator)) {
            coordinatorGone = true;
            coordinator = null;
        }
    }

    /** Marks a worker lost (once) and tells the callback. */
    void lose(int id) {
        if (lost.add(id)) {
            Address a = workers.remove(id);
            if (a != null) {
                lostAddresses.add(a);
            }
            onWorkerLost.accept(id, a);
        }
    }

    /** Counts (and logs) a member once, however many of its events arrive. */
    private void refuse(Address a, String why) {
        if (refusedAddresses.add(a)) {
            refused.refuse("member " + a, why);
        }
    }

    /** The live worker {@code id}'s address, or {@code null}. */
    Address worker(int id) {
        return lost.contains(id) ? null : workers.get(id);
    }

    /** Whether {@code a} is a live worker's address. */
    boolean isWorker(Address a) {
        return workers.containsValue(a);
    }

    /** Whether {@code a} belonged to a worker that is gone. */
    boolean wasWorker(Address a) {
        return lostAddresses.contains(a);
    }

    boolean isLost(int id) {
        return lost.contains(id);
    }

    /** Live workers. */
    int workers() {
        return workers.size();
    }

    /** The live workers' ids, in order. */
    List<Integer> liveIds() {
        List<Integer> ids = new java.util.ArrayList<>(workers.keySet());
        ids.removeAll(lost);
        java.util.Collections.sort(ids);
        return ids;
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
