/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A worker's side of the {@link Handshake}: it answers challenges and adopts as its coordinator
 * the first member whose accepted verdict verifies, joining that member's session. A refusal that
 * verifies means this worker cannot take part ({@link Roster#refusal()}); a verdict that does not
 * verify proves nothing (anyone can send one) and is kept as a hint ({@link Roster#unproven()}),
 * reported if no coordinator proves itself in time. A coordinator, once adopted, is never
 * replaced: a later claim is refused and logged once. A waiting verdict that verifies (the id is held by a
 * process the coordinator has not seen leave) is noted ({@link Roster#waiting()}) and the worker
 * keeps waiting for the coordinator's next challenge.
 */
final class Enrolment {

    /**
     * Open challenges kept, each under the nonce this worker drew to answer it: a bounded number,
     * so a flood of challenges cannot grow memory (a flood can push out a genuine one, which the
     * coordinator then simply asks again).
     */
    private static final int MAX_PENDING = 64;

    /** The offender of a verdict naming a coordinator that is no member of the cluster. */
    private static final String NO_MEMBER = "a verdict naming no member";

    private record Pending(UUID session, UUID coordinator, byte[] nc, byte[] nw) {
    }

    private final int id;
    private final FrameCodec codec;
    private final Roster roster;
    private final Session session;
    private final Runnable onCoordinator;
    /** Open challenges by the hex of their worker nonce nW. */
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private volatile com.hazelcast.cluster.Cluster cluster;

    Enrolment(int id, FrameCodec codec, Roster roster, Session session, Runnable onCoordinator) {
        this.id = id;
        this.codec = codec;
        this.roster = roster;
        this.session = session;
        this.onCoordinator = onCoordinator;
    }

    void attach(com.hazelcast.cluster.Cluster cluster) {
        this.cluster = cluster;
    }

    /** Answers one handshake message; {@code null} for anything malformed or refused. */
    byte[] onMessage(byte[] message) {
        com.hazelcast.cluster.Cluster c = cluster;
        if (c == null) {
            return null;                      // not started: the coordinator asks again
        }
        UUID self = c.getLocalMember().getUuid();
        byte type = Handshake.type(message);
        if (type == Handshake.CHALLENGE) {
            Handshake.Challenge ch = Handshake.challenge(message);
            if (ch == null || !ch.target().equals(self)) {
                return null;
            }
            byte[] nw = Handshake.nonce();
            synchronized (pending) {
                if (pending.size() >= MAX_PENDING) {
                    pending.remove(pending.keySet().iterator().next());
                }
                pending.put(HexFormat.of().formatHex(nw), new Pending(ch.session(), ch.coordinator(), ch.nonce(), nw));
            }
            long incarnation = session.incarnation();
            byte[] mac = Handshake.workerMac(codec, ch.session(), ch.coordinator(), self, ch.nonce(), nw, id,
                    incarnation);
            return new Handshake.Response(id, incarnation, self, nw, mac).encode();
        }
        if (type == Handshake.VERDICT) {
            Handshake.Verdict v = Handshake.verdict(message);
            Pending p;
            synchronized (pending) {
                p = v == null ? null : pending.get(HexFormat.of().formatHex(v.workerNonce()));
            }
            if (p == null || !p.session().equals(v.session()) || !p.coordinator().equals(v.coordinator())) {
                return null;
            }
            return verdict(v, p, self, c);
        }
        return null;
    }

    private byte[] verdict(Handshake.Verdict v, Pending p, UUID self, com.hazelcast.cluster.Cluster c) {
        Member from = null;
        for (Member m : c.getMembers()) {
            if (m.getUuid().equals(v.coordinator())) {
                from = m;
            }
        }
        String where = from == null ? String.valueOf(v.coordinator()) : String.valueOf(from.getAddress());
        // the offender to count and log: the member the verdict names, or one word for every verdict
        // naming none; unproven, the UUID is the sender's choice, and one process naming a fresh one
        // each time was counted as that many members and logged a line each
        Object offender = from == null ? NO_MEMBER : v.coordinator();
        boolean proved = Handshake.macEquals(v.mac(), Handshake.verdictMac(codec, v.session(), v.coordinator(), self,
                p.nc(), p.nw(), id, session.incarnation(), v.outcome(), v.reason()));
        if (roster.coordinator() != null && !roster.coordinator().getUuid().equals(v.coordinator())) {
            roster.offences().record(Offences.Kind.REFUSED_COORDINATOR, offender,
                    "a second coordinator claim (member at " + where + "); this worker keeps its coordinator");
            return null;
        }
        if (!proved) {
            // anyone can send bytes: a hint, not a refusal, so an impostor cannot make this worker give up
            roster.offences().record(Offences.Kind.REFUSED_COORDINATOR, offender,
                    "wrong proof of the shared secret (member at " + where + ")");
            roster.unproven("the member at " + where + " that claimed to be the coordinator does not prove this "
                    + "member's secret: the secrets differ (or it is not the coordinator)");
            return null;
        }
        synchronized (pending) {
            pending.remove(HexFormat.of().formatHex(p.nw()));   // answered; a replay of it finds nothing
        }
        if (v.waiting()) {
            roster.waiting(v.reason());       // the coordinator asks again once the id is free
            return null;
        }
        if (!v.accepted()) {
            roster.refused(v.reason());
            return null;
        }
        if (from == null || !session.join(v.session()) || !roster.adoptCoordinator(from)) {
            return null;
        }
        onCoordinator.run();
        return new byte[0];
    }
}
