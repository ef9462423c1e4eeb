/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which process holds each worker id, for the transports between JVMs: a worker id may be held by
 * one process after another (a killed or retired worker's JVM restarted under its id), and each
 * process is one <em>incarnation</em> of the id, named by a random 64-bit number it draws at start
 * ({@link #newIncarnation()}) and proves or announces when it joins.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>An id nobody holds is taken by the first process that proves it ({@link Proof#NEW}).
 *   <li>An id held by a live process is not given to another incarnation, but that claim waits
 *       ({@link Proof#WAITING}): the process may be a restart of one that is dead but not yet
 *       declared lost (its heartbeat timeout still running). The latest waiting claim of each id
 *       is kept, and once the id is lost the transport takes it back ({@link #takeWaiting}) and
 *       proves it again, as a rejoin; a claimant that leaves first is forgotten
 *       ({@link #withdraw}). The live incarnation claimed from another member is refused
 *       ({@link Proof#TAKEN}); the same member proving the same incarnation again changes
 *       nothing.
 *   <li>An id whose process was lost ({@link #lose}) is taken by the next process that proves it
 *       under another incarnation ({@link Proof#REJOINED}); the lost incarnation itself is refused
 *       for good, so a lost process that comes back (a partition that heals) cannot pose as its
 *       successor.
 *   <li>A transport acts on a frame only if it comes from the id's current incarnation
 *       ({@link #current}): a late frame of the lost process is never taken for its successor's.
 * </ul>
 *
 * <p>{@code H} is how the transport reaches a process (a Hazelcast member, a Pekko address);
 * holders are compared with {@code equals}. Losing and proving are synchronized on this object,
 * so an id is lost (and the loss reported by the caller) before it can be proven again.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 *
 * @param <H> the transport's handle of a member
 */
public final class Incarnations<H> {

    /** No incarnation: the coordinator's (it has one per session), and an id never proven. */
    public static final long NONE = 0;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The outcome of {@link #prove}. */
    public enum Proof {
        /** The id is this holder's now (or was already, under the same incarnation). */
        NEW,
        /** The id was lost, and this holder, a new incarnation, holds it now. */
        REJOINED,
        /**
         * Not now: another process holds the id live; this claim is kept until the id is lost
         * ({@link #takeWaiting}) or the claimant withdraws.
         */
        WAITING,
        /** Refused: the id is held by another holder or incarnation, or this is the lost incarnation. */
        TAKEN
    }

    /**
     * A claim on a worker id that waits for the id's live process to be lost.
     *
     * @param holder the process that claims the id
     * @param incarnation the incarnation it proved
     * @param <H> the transport's handle of a member
     */
    public record Claim<H>(H holder, long incarnation) {
    }

    private final Map<Integer, H> holders = new HashMap<>();
    /** The latest claim on each live id by another incarnation, at most one per id. */
    private final Map<Integer, Claim<H>> waiting = new HashMap<>();
    private final Set<Integer> lost = new HashSet<>();
    /** The incarnation each id proved last; kept when it is lost, so that incarnation cannot come back. */
    private final Map<Integer, Long> incarnations = new HashMap<>();
    /** Every incarnation of each id that was lost, refused for good (not only the latest). */
    private final Map<Integer, Set<Long>> spent = new HashMap<>();

    /** An empty register. */
    public Incarnations() {
    }

    /**
     * A worker process's incarnation: random, never {@link #NONE}.
     *
     * @return a random 64-bit number drawn from a {@link java.security.SecureRandom}, never
     *     {@link #NONE}
     */
    public static long newIncarnation() {
        long n;
        do {
            n = RANDOM.nextLong();
        } while (n == NONE);
        return n;
    }

    /**
     * Records that {@code holder} proved worker id {@code id} as {@code incarnation}: a new id, or
     * an id whose process was lost, under another incarnation (it rejoins); another incarnation
     * of a live id is kept waiting; anything else changes nothing. {@link #NONE} is always
     * refused.
     *
     * @param id the worker id claimed
     * @param holder the process that claims it
     * @param incarnation the incarnation the process announced
     * @return whether the id was taken new, rejoined, kept waiting, or refused
     */
    public synchronized Proof prove(int id, H holder, long incarnation) {
        if (incarnation == NONE) {
            return Proof.TAKEN;
        }
        Long before = incarnations.get(id);
        if (spent.getOrDefault(id, Set.of()).contains(incarnation)) {
            return Proof.TAKEN;
        }
        if (lost.contains(id)) {
            if (before != null && before == incarnation) {
                return Proof.TAKEN;
            }
            lost.remove(id);
            waiting.remove(id);
            holders.put(id, holder);
            incarnations.put(id, incarnation);
            return Proof.REJOINED;
        }
        H old = holders.putIfAbsent(id, holder);
        if (old == null) {
            incarnations.put(id, incarnation);
            return Proof.NEW;
        }
        if (before != null && before == incarnation) {
            return old.equals(holder) ? Proof.NEW : Proof.TAKEN;
        }
        waiting.put(id, new Claim<>(holder, incarnation));
        return Proof.WAITING;
    }

    /**
     * The claim that waited for worker {@code id}'s process to be lost, once it is: removed here,
     * for the transport to prove again (it rejoins, unless another process took the id first).
     *
     * @param id the worker id
     * @return the latest waiting claim, or {@code null} if none waits or the id is not lost
     */
    public synchronized Claim<H> takeWaiting(int id) {
        return lost.contains(id) ? waiting.remove(id) : null;
    }

    /**
     * Forgets worker {@code id}'s waiting claim if it is {@code holder}'s as {@code incarnation}
     * (the claimant left before the id was free).
     *
     * @param id the worker id
     * @param holder the claimant that left
     * @param incarnation its incarnation, so that a successor at the same address keeps its claim
     */
    public synchronized void withdraw(int id, H holder, long incarnation) {
        waiting.remove(id, new Claim<>(holder, incarnation));
    }

    /**
     * Takes the coordinator's word that {@code holder} is worker {@code id}'s current process as
     * {@code incarnation} (a worker learning who its peers are): it replaces what was known of the
     * id, lost or not.
     *
     * @param id the worker id
     * @param holder the process that holds it now
     * @param incarnation that process's incarnation
     */
    public synchronized void adopt(int id, H holder, long incarnation) {
        lost.remove(id);
        waiting.remove(id);
        holders.put(id, holder);
        incarnations.put(id, incarnation);
    }

    /**
     * Marks worker {@code id}'s current process lost; its incarnation stays recorded, refused for
     * good.
     *
     * @param id the worker id whose process was lost
     * @return whether it was live (or never proven) before: the caller reports each loss once
     */
    public synchronized boolean lose(int id) {
        if (!lost.add(id)) {
            return false;
        }
        Long last = incarnations.get(id);
        if (last != null) {
            spent.computeIfAbsent(id, k -> new HashSet<>()).add(last);
        }
        holders.remove(id);
        return true;
    }

    /**
     * The incarnation of worker {@code id}'s current process, whose frames alone are accepted;
     * {@link #NONE} for an id never proven. A lost id keeps its last incarnation, whose frames
     * the callers refuse anyway, since the id has no live holder.
     *
     * @param id the worker id
     * @return the current incarnation, or {@link #NONE}
     */
    public synchronized long current(int id) {
        Long n = incarnations.get(id);
        return n == null ? NONE : n;
    }

    /**
     * Whether a frame from {@code holder} that names worker {@code id}'s {@code incarnation} comes
     * from the id's live, current process.
     *
     * @param id the worker id the frame names
     * @param holder the process the frame came from
     * @param incarnation the incarnation the frame names
     * @return {@code true} only if all three match the id's live process
     */
    public synchronized boolean accepts(int id, H holder, long incarnation) {
        Long current = incarnations.get(id);
        return incarnation != NONE && !lost.contains(id) && holder.equals(holders.get(id)) && current != null
                && current == incarnation;
    }

    /**
     * The live holder of worker {@code id}, or {@code null}.
     *
     * @param id the worker id
     * @return the holder of the id's live process; {@code null} if the id was never proven or is
     *     lost
     */
    public synchronized H holder(int id) {
        return lost.contains(id) ? null : holders.get(id);
    }

    /**
     * The id {@code holder} holds, or -1.
     *
     * @param holder a process
     * @return the worker id whose live process it is, or -1
     */
    public synchronized int idOf(H holder) {
        for (Map.Entry<Integer, H> e : holders.entrySet()) {
            if (e.getValue().equals(holder)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /**
     * Whether worker {@code id}'s last process was lost (and none has rejoined since).
     *
     * @param id the worker id
     * @return {@code true} if the id's last process was lost
     */
    public synchronized boolean isLost(int id) {
        return lost.contains(id);
    }

    /**
     * The live holders by id, in id order.
     *
     * @return a new sorted map of the live holders, a copy the caller may keep
     */
    public synchronized Map<Integer, H> live() {
        return new TreeMap<>(holders);
    }

    /**
     * The number of live holders.
     *
     * @return the number of ids with a live process
     */
    public synchronized int size() {
        return holders.size();
    }
}
