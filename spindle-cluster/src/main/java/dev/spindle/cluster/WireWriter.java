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

    /** An empty buffer with room for 256 bytes before it grows. */
    public WireWriter() {
        this(256);
    }

    /**
     * An empty buffer with room for {@code capacity} bytes before it grows.
     *
     * @param capacity the initial capacity in bytes, a hint only: a value under 16 (negative
     *        included) gives 16, and the buffer grows as needed past it
     */
    public WireWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /**
     * The bytes written so far.
     *
     * @return the number of bytes written so far, 0 for a new writer
     */
    public int size() {
        return size;
    }

    /**
     * A copy of the bytes written.
     *
     * @return a new array of exactly {@link #size()} bytes; later writes do not change it
     */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /**
     * The bytes written, behind {@code prefix} bytes left zero for the caller (a signature).
     *
     * @param prefix how many zero bytes to leave before the written bytes, 0 or more
     * @return a new array of {@code prefix + size()} bytes: {@code prefix} zeros, then a copy of
     *         the bytes written
     * @throws NegativeArraySizeException if {@code prefix} is negative enough to make the length
     *         negative (a smaller negative {@code prefix} throws {@link IndexOutOfBoundsException})
     */
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

    /**
     * Writes the low 8 bits of {@code b}.
     *
     * @param b the byte to write; bits above the low 8 are ignored
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the buffer would have to grow past about 2 GiB
     */
    public WireWriter u8(int b) {
        ensure(1);
        buf[size++] = (byte) b;
        return this;
    }

    /**
     * Writes a boolean as one byte: 1 for {@code true}, 0 for {@code false}.
     *
     * @param b the value to write
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the buffer would have to grow past about 2 GiB
     */
    public WireWriter bool(boolean b) {
        return u8(b ? 1 : 0);
    }

    /**
     * Writes a non-negative {@code long} as unsigned LEB128 (1 to 10 bytes).
     *
     * @param v the value; meant to be non-negative (a count, a length): a negative value is
     *        taken as unsigned and always takes 10 bytes (use {@link #zigZag} for signed values)
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the buffer would have to grow past about 2 GiB
     */
    public WireWriter varLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
        return this;
    }

    /**
     * Writes any {@code long}, zig-zag encoded then as {@link #varLong}: values near zero, of
     * either sign, take the fewest bytes (-64..63 take one).
     *
     * @param v the value, any {@code long}
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the buffer would have to grow past about 2 GiB
     */
    public WireWriter zigZag(long v) {
        return varLong((v << 1) ^ (v >> 63));
    }

    /**
     * Writes a {@code long} as 8 bytes, big-endian (for random numbers, which a varint would lengthen).
     *
     * @param v the value, any {@code long}
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the buffer would have to grow past about 2 GiB
     */
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
     *
     * @param s the string, or {@code null} (written as the single length byte 0)
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the encoded string, or the buffer with it, would
     *         exceed about 2 GiB
     */
    public WireWriter string(String s) {
        if (s == null) {
            return varLong(0);
        }
        return write(s, encodedLength(s));
    }

    /**
     * Writes a string, or {@code null}, as {@link #string(String)} does, if its encoded length is
     * within the bound its reader applies ({@link WireReader#string(int, String)}): a string the
     * reader would refuse is refused here, before anything is written, so that the sender can fail
     * what carries it instead of sending a frame that its receiver drops whole.
     *
     * @param s the string, or {@code null} (written as the single length byte 0)
     * @param maxBytes the longest encoded length the reader accepts, in bytes (not chars)
     * @param what what the string is, for the message (e.g. {@code "key"})
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the encoded string is longer than {@code maxBytes}
     *         (nothing is written then), or the buffer would exceed about 2 GiB
     */
    public WireWriter string(String s, int maxBytes, String what) {
        if (s == null) {
            return varLong(0);
        }
        long encoded = encodedLength(s);
        if (encoded > maxBytes) {
            throw new IllegalArgumentException(what + " of " + encoded + " bytes encoded, over the wire's bound of "
                    + maxBytes);
        }
        return write(s, encoded);
    }

    /** The bytes {@code s} takes encoded: one, two or three per UTF-16 unit. */
    private static long encodedLength(String s) {
        int n = s.length();
        long encoded = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            encoded += c < 0x80 ? 0 : c < 0x800 ? 1 : 2;
        }
        return encoded;
    }

    /** Writes {@code s}, of {@code encoded} bytes encoded, with its length. */
    private WireWriter write(String s, long encoded) {
        if (encoded > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("string too long to encode");
        }
        int n = s.length();
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

    /**
     * Writes a byte array, or {@code null}, as its length (plus one) and bytes.
     *
     * @param b the bytes, copied; or {@code null} (written as the single length byte 0)
     * @return this writer, for chaining
     * @throws IllegalArgumentException if the buffer would have to grow past about 2 GiB
     */
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
