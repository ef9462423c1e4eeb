/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * A worker's side of the {@link Handshake}: it answers challenges and adopts as its coordinator
 * the first member whose accepted verdict verifies, joining that member's session. A refusal that
 * verifies means this worker cannot take part ({@link Roster#refusal()}); a verdict that does not
 * verify proves nothing (anyone can send one) and is kept as a hint ({@link Roster#unproven()}),
 * reported if no coordinator proves itself in time. A coordinator, once adopted, is never
 * replaced: a later claim is refused and logged once. A waiting verdict that verifies (the id is held by a
 * process the coordinator has not seen leave) is noted ({@link Roster#waiting()}) and the worker
 * keeps waiting for the coordinator's next challenge.
 *
 * <p>Nothing in a challenge is signed, so this worker keeps no state for one: its nonce nW is the
 * coordinator's nonce nC encrypted under a key this process drew at start ({@link #workerNonce}),
 * and a verdict's nW gives nC back. A table of open challenges, bounded against a flood, was
 * pushed through by one: 64 forged challenges between the coordinator's and its verdict left the
 * verdict nothing to answer, so a genuine worker could not join while the flood went on. Only
 * verdicts that verify are remembered, so that a replay of one finds it answered.
 */
final class Enrolment {

    /**
     * Verdicts answered that are remembered, by their nW, so that a replay finds its verdict
     * answered: only verdicts that verify are, so only the coordinator's own push out the oldest
     * (one per try it makes while a claim waits; a terminal verdict, accepted or refused, comes once).
     */
    private static final int MAX_ANSWERED = 1024;

    /** The offender of a verdict naming a coordinator that is no member of the cluster. */
    private static final String NO_MEMBER = "a verdict naming no member";

    private record Pending(byte[] nc, byte[] nw) {
    }

    private final int id;
    private final FrameCodec codec;
    private final Roster roster;
    private final Session session;
    private final Runnable onCoordinator;
    /** This process's key for its nonces nW ({@link #workerNonce}); never leaves it. */
    private final SecretKeySpec nonceKey = new SecretKeySpec(Arrays.copyOf(Handshake.nonce(), 16), "AES");
    /** The hex of the nonces nW of the verdicts that verified, oldest first; at most {@link #MAX_ANSWERED}. */
    private final Set<String> answered = new LinkedHashSet<>();
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
            byte[] nw = workerNonce(ch.nonce(), Cipher.ENCRYPT_MODE);   // nothing kept: a flood pushes nothing out
            long incarnation = session.incarnation();
            byte[] mac = Handshake.workerMac(codec, ch.session(), ch.coordinator(), self, ch.nonce(), nw, id,
                    incarnation);
            return new Handshake.Response(id, incarnation, self, nw, mac).encode();
        }
        if (type == Handshake.VERDICT) {
            Handshake.Verdict v = Handshake.verdict(message);
            if (v == null) {
                return null;
            }
            synchronized (answered) {
                if (answered.contains(HexFormat.of().formatHex(v.workerNonce()))) {
                    return null;              // a replay of a verdict answered
                }
            }
            // the session and coordinator the challenge named are in the verdict's proof
            return verdict(v, new Pending(workerNonce(v.workerNonce(), Cipher.DECRYPT_MODE), v.workerNonce()), self, c);
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
        synchronized (answered) {
            if (!answered.add(HexFormat.of().formatHex(p.nw()))) {
                return null;                  // answered on another thread meanwhile
            }
            if (answered.size() > MAX_ANSWERED) {
                answered.remove(answered.iterator().next());
            }
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

    /**
     * This worker's nonce nW for the coordinator's nonce nC ({@code mode} encrypt), or nC back from
     * nW (decrypt): a permutation under this process's own key, so that nW is as fresh as nC, which
     * no one without the key can turn into another's nW, and which gives back the nC of the verdict's
     * proof without a table of open challenges.
     */
    private byte[] workerNonce(byte[] nonce, int mode) {
        try {
            Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");   // whole blocks: nonces are 32 bytes
            aes.init(mode, nonceKey);
            return aes.doFinal(nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is missing from this JVM", e);   // every Java SE has it
        }
    }
}
