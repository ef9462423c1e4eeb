/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.JavaSerial;
import dev.spindle.cluster.SerialAllowList;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Turns {@link Wire.Frame}s into bytes and back, and nested user objects too.
 *
 * <p>A frame is {@code MAGIC (4 bytes) | body length (4 bytes) | body}, the body a
 * Java-serialised {@link Wire.Frame}. {@link #decode} never throws on hostile input: it returns a
 * {@link Wire.Rejected} naming the problem, so that the receiving actor can count and log the
 * offender (a serializer does not know who sent the bytes, the actor does). Bounds, each checked
 * before the work or memory it guards:
 * <ul>
 *   <li>a nested value or function is at most {@code maxBytes}; a frame body, which carries at
 *       most one of them plus keys and bookkeeping, at most {@code maxBytes + }{@value #FRAME_SLACK}
 *       (the frame limit);
 *   <li>the input is at most the frame limit plus the header (Artery's {@code maximum-frame-size}
 *       bounds it already; this is the second check), and the declared body length must be
 *       non-negative, at most the frame limit and equal to what follows: a lying length is refused
 *       before anything is read;
 *   <li>the body is read through {@link SerialAllowList}'s filter: only allowed classes, depth at
 *       most {@value #MAX_DEPTH} (which bounds the CPU a nested-collection hash bomb can take to
 *       about 2^{@value #MAX_DEPTH} steps), at most the frame limit in stream bytes, and every
 *       array's declared length at most {@code maxBytes} before the array is allocated.
 * </ul>
 * Frames are encoded by the sender's own thread ({@link Outbox}), never inside Pekko, so a frame
 * over the limit fails where the sender can turn it into a task error instead of being dropped.
 * Thread-safe.
 */
final class WireCodec {

    static final int MAGIC = 0x53504B01;          // "SPK", version 1
    static final int HEADER_BYTES = 8;
    static final int MAX_DEPTH = 20;
    /** Room in a frame for keys, dependency lists and bookkeeping beside one nested value. */
    static final int FRAME_SLACK = 64 * 1024;

    private final int maxBytes;
    private final int frameLimit;
    private final ObjectInputFilter filter;

    WireCodec(List<String> allowedPackages, int maxBytes) {
        this.maxBytes = maxBytes;
        this.frameLimit = maxBytes + FRAME_SLACK;
        this.filter = ObjectInputFilter.Config.createFilter(SerialAllowList.pattern(
                WireCodec.class.getPackageName(), allowedPackages, MAX_DEPTH, Math.max(10_000, frameLimit / 8),
                maxBytes, frameLimit));
    }

    /** The largest frame body accepted or produced. */
    int frameLimit() {
        return frameLimit;
    }

    /**
     * Encodes a frame.
     *
     * @throws IllegalArgumentException if it cannot be serialised or exceeds the frame limit
     */
    byte[] encode(Wire.Frame frame) {
        byte[] body = JavaSerial.serialize(frame, frameLimit, "frame");
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + body.length);
        return out.putInt(MAGIC).putInt(body.length).put(body).array();
    }

    /** Decodes a frame, or says why not; never throws on bad input. */
    Object decode(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER_BYTES) {
            return new Wire.Rejected("frame shorter than its header");
        }
        if (bytes.length > HEADER_BYTES + (long) frameLimit) {
            return new Wire.Rejected("frame of " + bytes.length + " bytes exceeds the limit of " + frameLimit);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.getInt() != MAGIC) {
            return new Wire.Rejected("not a Spindle frame (bad magic)");
        }
        int declared = in.getInt();
        if (declared < 0 || declared > frameLimit) {
            return new Wire.Rejected("declared length " + declared + " outside 0.." + frameLimit);
        }
        if (declared != bytes.length - HEADER_BYTES) {
            return new Wire.Rejected("declared length " + declared + " but " + (bytes.length - HEADER_BYTES)
                    + " bytes follow");
        }
        try {
            Object o = read(bytes, HEADER_BYTES, declared);
            if (!(o instanceof Wire.Frame f)) {
                return new Wire.Rejected("body is " + (o == null ? "null" : "a " + o.getClass().getName()) + ", not a frame");
            }
            return f.body() != null ? f : new Wire.Rejected("frame without a body");
        } catch (SecurityException e) {
            return new Wire.Rejected(e.getMessage());
        }
    }

    /**
     * Serialises a value (or a frame's body) with Java serialisation.
     *
     * @throws IllegalArgumentException if it is not serialisable or exceeds the limit
     */
    byte[] serialize(Object value) {
        return JavaSerial.serialize(value, maxBytes, "value");
    }

    /**
     * Deserialises a nested value through the allow-list.
     *
     * @throws SecurityException if it is refused or unreadable
     */
    Object deserialize(byte[] bytes) {
        if (bytes.length > maxBytes) {
            throw new SecurityException("value of " + bytes.length + " bytes exceeds the limit of " + maxBytes);
        }
        return read(bytes, 0, bytes.length);
    }

    private Object read(byte[] bytes, int offset, int length) {
        try {
            return JavaSerial.read(bytes, offset, length, filter);     // unreadable: SecurityException already
        } catch (InvalidClassException e) {
            throw new SecurityException("refused by the allow-list or its limits (" + e.getMessage() + ")");
        }
    }
}
