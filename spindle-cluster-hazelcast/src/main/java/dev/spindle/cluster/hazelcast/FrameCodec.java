/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import dev.spindle.cluster.JavaSerial;
import dev.spindle.cluster.RemoteTaskException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Turns Spindle objects into signed bytes and back. A frame is {@code HMAC-SHA256(secret,
 * payload) || payload}, the payload a Java-serialised object. {@link #open} checks the signature
 * before it reads a single object, and reads through an {@link ObjectInputFilter} allow-list
 * (see {@link #allowList}), so an unsigned frame never reaches the deserialiser and a signed one
 * can only name allowed classes. Thread-safe.
 */
final class FrameCodec {

    static final int MAC_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final ObjectInputFilter filter;
    private final AtomicLong rejected = new AtomicLong();
    private final Offences offences;
    /** The class the filter refused last on this thread, for a message that names it. */
    private static final ThreadLocal<String> lastRefused = new ThreadLocal<>();

    FrameCodec(byte[] secret, List<String> allowedPackages) {
        this(secret, allowedPackages, new Offences("codec"));
    }

    /** A codec that reports what it refuses to {@code offences} (once per kind and offender). */
    FrameCodec(byte[] secret, List<String> allowedPackages, Offences offences) {
        this.offences = offences;
        this.key = new SecretKeySpec(secret, ALGORITHM);
        ObjectInputFilter patterns = ObjectInputFilter.Config.createFilter(allowList(allowedPackages));
        this.filter = info -> {
            ObjectInputFilter.Status status = patterns.checkInput(info);
            if (status == ObjectInputFilter.Status.REJECTED && info.serialClass() != null) {
                lastRefused.set(info.serialClass().getName());
            }
            return status;
        };
    }

    /**
     * The filter pattern: Spindle's wire and message classes, the scatter lambdas of
     * {@code Client} (the class and its lambdas), java.lang/java.util/java.math basics and serialised lambdas, the user's
     * packages, and {@link RemoteTaskException} (a worker reports a task's failure in it, as text);
     * everything else is refused. Depth and size limits bound hostile graphs from a holder of the
     * secret.
     */
    static String allowList(List<String> allowedPackages) {
        // the first pattern that matches a class decides, so naming one class ahead is exact
        return RemoteTaskException.class.getName() + ";" + dev.spindle.cluster.SerialAllowList.pattern(
                "dev.spindle.cluster.hazelcast", allowedPackages, 64, 1_000_000, 100_000_000, 0);
    }

    /** Serialises and signs. */
    byte[] seal(Object payload) {
        byte[] body = serialize(payload);
        byte[] out = Arrays.copyOf(mac(body, 0, body.length), MAC_BYTES + body.length);
        System.arraycopy(body, 0, out, MAC_BYTES, body.length);
        return out;
    }

    /**
     * Checks the signature, then deserialises through the allow-list.
     *
     * @throws SecurityException if the frame is unsigned, wrongly signed or names a class outside
     *         the allow-list; the frame is counted in {@link #rejected()}
     */
    Object open(byte[] frame) {
        if (frame == null || frame.length <= MAC_BYTES) {
            throw reject(Offences.Kind.BAD_SIGNATURE, "unsigned frames", "frame too short to be signed");
        }
        byte[] expected = mac(frame, MAC_BYTES, frame.length - MAC_BYTES);
        if (!MessageDigest.isEqual(expected, Arrays.copyOf(frame, MAC_BYTES))) {
            throw reject(Offences.Kind.BAD_SIGNATURE, "unsigned or forged frames", "bad signature");
        }
        return read(frame, MAC_BYTES, frame.length - MAC_BYTES);
    }

    /** Serialises without signing, for a value nested in a frame that will be signed. */
    byte[] serialize(Object value) {
        return JavaSerial.serialize(value);
    }

    /** Deserialises a nested value through the allow-list (its frame was already verified). */
    Object deserialize(byte[] bytes) {
        return read(bytes, 0, bytes.length);
    }

    private Object read(byte[] bytes, int offset, int length) {
        try {
            return JavaSerial.read(bytes, offset, length, filter);
        } catch (InvalidClassException e) {
            String refused = lastRefused.get();
            lastRefused.remove();
            throw reject(Offences.Kind.REFUSED_CLASS, refused == null ? "a class" : refused, "class "
                    + (refused == null ? "" : refused + " ") + "refused by the allow-list (" + e.getMessage() + ")");
        } catch (SecurityException unreadable) {
            throw reject(Offences.Kind.REFUSED_CLASS, "unreadable payloads", unreadable.getMessage());
        }
    }

    /** Frames and values refused so far. */
    long rejected() {
        return rejected.get();
    }

    /** HMAC-SHA256 of {@code data} under the secret, for the handshake. */
    byte[] mac(byte[] data) {
        return mac(data, 0, data.length);
    }

    /** HMAC-SHA256 of part of {@code data} under the secret. */
    byte[] mac(byte[] data, int offset, int length) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(data, offset, length);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private SecurityException reject(Offences.Kind kind, Object offender, String why) {
        rejected.incrementAndGet();
        offences.record(kind, offender, why);
        return new SecurityException(why);
    }
}
