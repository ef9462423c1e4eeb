/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * How a worker and the coordinator prove the shared secret to each other, bound to both member
 * UUIDs and to fresh nonces, so that nothing a member publishes or sends can be replayed.
 *
 * <ol>
 * <li>The coordinator C sends worker member W a <b>challenge</b>: its session id S, its member
 *     UUID, W's member UUID and a random nonce nC.
 * <li>W answers with its worker id, its incarnation I (a random non-zero number its process drew
 *     at start, carried in every frame it sends), its UUID, a random nonce nW and
 *     {@code HMAC(secret, "worker" | S | C | W | nC | nW | id | I)}.
 * <li>C checks the answer against the member it asked (a relayed answer names another UUID) and
 *     sends a <b>verdict</b>, accepted, refused or waiting, with a reason and W's nonce nW (from which
 *     W finds the nC of the challenge it answers), under
 *     {@code HMAC(secret, "verdict" | S | C | W | nC | nW | id | I | verdict | reason)}. W adopts S and
 *     the member C as its coordinator only on an accepted verdict that verifies, and only if it has
 *     no coordinator yet: a second coordinator is refused. A waiting verdict (the id is held by a
 *     process C has not yet seen leave) tells W to keep its claim: C challenges it again, with
 *     fresh nonces, until the id is free.
 * </ol>
 *
 * Nothing in a challenge is signed, so anyone may send one: W keeps no state for it, its nonce nW
 * being nC encrypted under a key of W's process, from which the verdict's nW gives nC back
 * ({@link Enrolment}), so forged challenges naming C, however many, cannot spoil or push out the
 * one C's verdict answers; W remembers the verdicts that verified, so a replay finds its verdict
 * answered. A verdict that does not verify proves nothing either (C holding another secret,
 * or any member sending bytes): W records it as a hint, not a refusal, so that an impostor cannot
 * make a worker give up, and reports it only if no coordinator proves itself within W's wait. The
 * messages are fixed-layout bytes, read with every length checked before use; nothing here is
 * deserialised as Java objects, since none of it is signed yet.
 */
final class Handshake {

    static final byte CHALLENGE = 1;
    static final byte RESPONSE = 2;
    static final byte VERDICT = 3;
    /** A verdict's outcomes. */
    static final byte REFUSED = 0;
    static final byte ACCEPTED = 1;
    static final byte WAITING = 2;
    static final int NONCE_BYTES = 32;
    static final int MAX_REASON_BYTES = 512;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {
    }

    static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    record Challenge(UUID session, UUID coordinator, UUID target, byte[] nonce) {
        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(1 + 16 * 3 + NONCE_BYTES).put(CHALLENGE);
            uuid(b, session);
            uuid(b, coordinator);
            uuid(b, target);
            return b.put(nonce).array();
        }
    }

    private static final int RESPONSE_BYTES = 1 + 4 + 8 + 16 + NONCE_BYTES + FrameCodec.MAC_BYTES;

    record Response(int worker, long incarnation, UUID member, byte[] nonce, byte[] mac) {
        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(RESPONSE_BYTES).put(RESPONSE);
            b.putInt(worker).putLong(incarnation);
            uuid(b, member);
            return b.put(nonce).put(mac).array();
        }
    }

    /**
     * @param outcome {@link #ACCEPTED}, {@link #REFUSED} or {@link #WAITING}
     * @param workerNonce the nonce nW of the response this verdict answers
     */
    record Verdict(UUID session, UUID coordinator, byte[] workerNonce, byte outcome, String reason, byte[] mac) {
        Verdict(UUID session, UUID coordinator, byte[] workerNonce, boolean accepted, String reason, byte[] mac) {
            this(session, coordinator, workerNonce, accepted ? ACCEPTED : REFUSED, reason, mac);
        }

        boolean accepted() {
            return outcome == ACCEPTED;
        }

        boolean waiting() {
            return outcome == WAITING;
        }

        byte[] encode() {
            byte[] r = reason.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(1 + 16 * 2 + NONCE_BYTES + 1 + 2 + r.length + FrameCodec.MAC_BYTES)
                    .put(VERDICT);
            uuid(b, session);
            uuid(b, coordinator);
            b.put(workerNonce).put(outcome).putShort((short) r.length).put(r);
            return b.put(mac).array();
        }
    }

    /** The worker's proof: it knows the secret, in this session, as this member, for this id and incarnation. */
    static byte[] workerMac(FrameCodec codec, UUID session, UUID coordinator, UUID worker, byte[] nc, byte[] nw,
                            int id, long incarnation) {
        return codec.mac(transcript("worker", session, coordinator, worker, nc, nw, id, incarnation, ""));
    }

    /** The coordinator's proof over its verdict. */
    static byte[] verdictMac(FrameCodec codec, UUID session, UUID coordinator, UUID worker, byte[] nc, byte[] nw,
                             int id, long incarnation, byte outcome, String reason) {
        String label = outcome == ACCEPTED ? "verdict+" : outcome == WAITING ? "verdict?" : "verdict-";
        return codec.mac(transcript(label, session, coordinator, worker, nc, nw, id, incarnation, reason));
    }

    static boolean macEquals(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    private static byte[] transcript(String label, UUID session, UUID coordinator, UUID worker, byte[] nc,
                                     byte[] nw, int id, long incarnation, String reason) {
        byte[] l = label.getBytes(StandardCharsets.UTF_8);
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(4 + l.length + 16 * 3 + 2 * NONCE_BYTES + 4 + 8 + 4 + r.length);
        b.putInt(l.length).put(l);
        uuid(b, session);
        uuid(b, coordinator);
        uuid(b, worker);
        b.put(nc).put(nw).putInt(id).putLong(incarnation).putInt(r.length).put(r);
        return b.array();
    }

    /** The message's type byte, or 0 if empty. */
    static byte type(byte[] message) {
        return message == null || message.length == 0 ? 0 : message[0];
    }

    /** Parses a challenge; {@code null} if malformed. */
    static Challenge challenge(byte[] m) {
        if (m.length != 1 + 16 * 3 + NONCE_BYTES || m[0] != CHALLENGE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(m, 1, m.length - 1);
        return new Challenge(uuid(b), uuid(b), uuid(b), bytes(b, NONCE_BYTES));
    }

    /** Parses a response; {@code null} if malformed. */
    static Response response(byte[] m) {
        if (m == null || m.length != RESPONSE_BYTES || m[0] != RESPONSE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(m, 1, m.length - 1);
        return new Response(b.getInt(), b.getLong(), uuid(b), bytes(b, NONCE_BYTES), bytes(b, FrameCodec.MAC_BYTES));
    }

    /** Parses a verdict; {@code null} if malformed (every length is checked before it is used). */
    static Verdict verdict(byte[] m) {
        int fixed = 1 + 16 * 2 + NONCE_BYTES + 1 + 2 + FrameCodec.MAC_BYTES;
        if (m.length < fixed || m.length > fixed + MAX_REASON_BYTES || m[0] != VERDICT) {
            return null;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(m, 1, m.length - 1);
            UUID session = uuid(b);
            UUID coordinator = uuid(b);
            byte[] workerNonce = bytes(b, NONCE_BYTES);
            byte outcome = b.get();
            int n = b.getShort() & 0xFFFF;
            if (n != m.length - fixed || outcome != ACCEPTED && outcome != REFUSED && outcome != WAITING) {
                return null;
            }
            String reason = new String(bytes(b, n), StandardCharsets.UTF_8);
            return new Verdict(session, coordinator, workerNonce, outcome, reason, bytes(b, FrameCodec.MAC_BYTES));
        } catch (BufferUnderflowException e) {
            return null;
        }
    }

    private static void uuid(ByteBuffer b, UUID u) {
        b.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
    }

    private static UUID uuid(ByteBuffer b) {
        return new UUID(b.getLong(), b.getLong());
    }

    private static byte[] bytes(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }
}
