/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Arrays;

/**
 * A growable byte buffer that {@link MessageCodec} writes frames into, with the primitive forms
 * {@link WireReader} reads back: single bytes, variable-length integers (unsigned LEB128, signed
 * values zig-zag encoded first, so that small magnitudes of either sign take one byte), fixed
 * 64-bit longs, and length-prefixed strings (see {@link #string}) and byte arrays (a length of 0
 * meaning {@code null}, otherwise the length plus one). Not thread-safe: one writer per frame.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class WireWriter {

    private byte[] buf;
    private int size;

    /** An empty buffer. */
    public WireWriter() {
        this(256);
    }

    /** An empty buffer with room for {@code capacity} bytes before it grows. */
    public WireWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** The bytes written so far. */
    public int size() {
        return size;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** The bytes written, behind {@code prefix} bytes left zero for the caller (a signature). */
    public byte[] toByteArray(int prefix) {
        byte[] out = new byte[prefix + size];
        System.arraycopy(buf, 0, out, prefix, size);
        return out;
    }

    private void ensure(int more) {
        if (buf.length - size < more) {
            long wanted = Math.max((long) buf.length * 2, (long) size + more);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("frame too large to encode");
            }
            buf = Arrays.copyOf(buf, (int) wanted);
        }
    }

    /** Writes the low 8 bits of {@code b}. */
    public WireWriter u8(int b) {
        ensure(1);
        buf[size++] = (byte) b;
        return this;
    }

    /** Writes a boolean as one byte. */
    public WireWriter bool(boolean b) {
        return u8(b ? 1 : 0);
    }

    /** Writes a non-negative {@code long} as unsigned LEB128 (1 to 10 bytes). */
    public WireWriter varLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
        return this;
    }

    /** Writes any {@code long}, zig-zag encoded then as {@link #varLong}. */
    public WireWriter zigZag(long v) {
        return varLong((v << 1) ^ (v >> 63));
    }

    /** Writes a {@code long} as 8 bytes, big-endian (for random numbers, which a varint would lengthen). */
    public WireWriter fixed64(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
        return this;
    }

    /**
     * Writes a string, or {@code null}, as its encoded length (plus one) and bytes: each UTF-16
     * unit in UTF-8's one-, two- or three-byte form (CESU-8), so that every Java string, an
     * unpaired surrogate included, reads back equal (a key must).
     */
    public WireWriter string(String s) {
        if (s == null) {
            return varLong(0);
        }
        int n = s.length();
        long encoded = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            encoded += c < 0x80 ? 0 : c < 0x800 ? 1 : 2;
        }
        if (encoded > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("string too long to encode");
        }
        varLong(encoded + 1);
        ensure((int) encoded);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                buf[size++] = (byte) c;
            } else if (c < 0x800) {
                buf[size++] = (byte) (0xC0 | c >> 6);
                buf[size++] = (byte) (0x80 | c & 0x3F);
            } else {
                buf[size++] = (byte) (0xE0 | c >> 12);
                buf[size++] = (byte) (0x80 | (c >> 6) & 0x3F);
                buf[size++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return this;
    }

    /** Writes a byte array, or {@code null}, as its length (plus one) and bytes. */
    public WireWriter bytes(byte[] b) {
        if (b == null) {
            return varLong(0);
        }
        varLong(b.length + 1L);
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }
}
