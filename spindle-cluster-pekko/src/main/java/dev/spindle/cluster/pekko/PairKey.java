/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.FrameMac;
import java.nio.charset.StandardCharsets;

/**
 * The key that the coordinator and one worker process share once {@link KeyExchange} has run:
 * every frame between them carries the HMAC-SHA256 under it of everything after the
 * authenticator (addressee, incarnation, messages). It is derived from both sides' random tokens,
 * {@code HMAC(coordinatorToken, LABEL || workerToken)}, so it is known only to the two processes
 * that each received one of the tokens. Thread-safe.
 */
final class PairKey implements Wire.Seal {

    private static final byte[] LABEL = "spindle pekko pair key, version 1".getBytes(StandardCharsets.US_ASCII);

    private final FrameMac mac;

    private PairKey(byte[] key) {
        this.mac = new FrameMac(key);
    }

    /** The pair's key from the coordinator's and the worker's tokens. */
    static PairKey derive(byte[] coordinatorToken, byte[] workerToken) {
        byte[] input = new byte[LABEL.length + workerToken.length];
        System.arraycopy(LABEL, 0, input, 0, LABEL.length);
        System.arraycopy(workerToken, 0, input, LABEL.length, workerToken.length);
        return new PairKey(new FrameMac(coordinatorToken).mac(input));
    }

    @Override
    public void seal(byte[] frame, int authOffset, int signedOffset, int signedLength) {
        System.arraycopy(mac.mac(frame, signedOffset, signedLength), 0, frame, authOffset, FrameMac.BYTES);
    }

    /** Whether {@code frame} at {@code authOffset} holds the MAC of its signed part (constant time). */
    boolean verifies(byte[] frame, int authOffset, int signedOffset, int signedLength) {
        return signedLength >= 0 && mac.verifies(frame, authOffset, frame, signedOffset, signedLength);
    }

    @Override
    public String toString() {
        return "PairKey";                     // never the key
    }
}
