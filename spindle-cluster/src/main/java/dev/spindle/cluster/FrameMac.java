/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under one key, for the transports that authenticate their frames: the Hazelcast
 * transport under the cluster's shared secret, the Pekko transport under a key per
 * coordinator–worker pair. One initialised {@link Mac} per thread and key, since looking the
 * algorithm up and keying it costs more than the MAC of a small frame; comparisons take the
 * same time whatever bytes differ. Thread-safe.
 */
public final class FrameMac {

    /** The length of a MAC, and of the keys and tokens {@link #randomToken()} draws, in bytes. */
    public static final int BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

    /**
     * A MAC under {@code key}.
     *
     * @param key the key's bytes, at least 16
     * @throws IllegalArgumentException if the key is shorter than 16 bytes
     * @throws NullPointerException if {@code key} is null
     */
    public FrameMac(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length < 16) {
            throw new IllegalArgumentException("a MAC key of " + key.length + " bytes; at least 16 are needed");
        }
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /**
     * {@value #BYTES} bytes from a {@link SecureRandom}: a nonce, a token or a key.
     *
     * @return a new array of random bytes
     */
    public static byte[] randomToken() {
        byte[] token = new byte[BYTES];
        RANDOM.nextBytes(token);
        return token;
    }

    /**
     * The MAC of {@code data}.
     *
     * @param data the bytes
     * @return a new array of {@value #BYTES} bytes
     */
    public byte[] mac(byte[] data) {
        return mac(data, 0, data.length);
    }

    /**
     * The MAC of part of {@code data}.
     *
     * @param data the bytes
     * @param offset where the part starts
     * @param length its length
     * @return a new array of {@value #BYTES} bytes
     */
    public byte[] mac(byte[] data, int offset, int length) {
        Mac mac = macs.get();
        mac.update(data, offset, length);
        return mac.doFinal();                 // and resets it for the thread's next use
    }

    /**
     * Whether {@code expected} at {@code expectedOffset} holds the MAC of part of {@code data}, in
     * time that does not depend on where they differ.
     *
     * @param expected the bytes that claim to be the MAC
     * @param expectedOffset where the claimed MAC starts in them
     * @param data the bytes
     * @param offset where the part starts
     * @param length its length
     * @return {@code true} if the {@value #BYTES} bytes match
     */
    public boolean verifies(byte[] expected, int expectedOffset, byte[] data, int offset, int length) {
        return expectedOffset >= 0 && expected.length - expectedOffset >= BYTES
                && equal(mac(data, offset, length), 0, expected, expectedOffset, BYTES);
    }

    /**
     * Whether two arrays hold the same bytes, in time that depends only on their lengths.
     *
     * @param a one array, or {@code null}
     * @param b the other, or {@code null}
     * @return {@code true} if both are non-null and equal
     */
    public static boolean equal(byte[] a, byte[] b) {
        return a != null && b != null && a.length == b.length && equal(a, 0, b, 0, a.length);
    }

    private static boolean equal(byte[] a, int aOffset, byte[] b, int bOffset, int length) {
        int difference = 0;
        for (int i = 0; i < length; i++) {
            difference |= a[aOffset + i] ^ b[bOffset + i];
        }
        return difference == 0;
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " unavailable", e);
        }
    }

    @Override
    public String toString() {
        return "FrameMac[" + ALGORITHM + "]";          // never the key
    }
}
