/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The console's access token. A presented token is compared in constant time: both sides are
 * hashed with SHA-256 first, so the comparison ({@link MessageDigest#isEqual}, which does not stop
 * at the first difference) always runs over 32 bytes and leaks neither where the first wrong
 * character is nor the token's length.
 */
final class AccessToken {

    /** The shortest token accepted: 16 characters of the URL-safe alphabet, about 96 bits. */
    static final int MIN_LENGTH = 16;
    /** The longest token accepted (it travels in URLs). */
    static final int MAX_LENGTH = 256;

    private final byte[] digest;

    private AccessToken(String token) {
        this.digest = sha256(token);
    }

    /**
     * Checks a token chosen by the application.
     *
     * @throws IllegalArgumentException if it is shorter than {@link #MIN_LENGTH} or longer than
     *     {@link #MAX_LENGTH}, or holds a character outside {@code A-Z a-z 0-9 - _ . ~} (it must
     *     sit in a URL as it is)
     */
    static AccessToken of(String token) {
        if (token.length() < MIN_LENGTH || token.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("token must have " + MIN_LENGTH + " to " + MAX_LENGTH
                    + " characters, not " + token.length());
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~';
            if (!ok) {
                throw new IllegalArgumentException("token may hold only A-Z a-z 0-9 - _ . ~ (character "
                        + i + " is not one)");
            }
        }
        return new AccessToken(token);
    }

    /** A new random token: 24 bytes from {@link SecureRandom}, URL-safe Base64 (32 characters). */
    static String random() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Whether {@code presented} is this token; in constant time. */
    boolean matches(String presented) {
        return MessageDigest.isEqual(digest, sha256(presented));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
