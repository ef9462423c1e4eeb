/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.nio.charset.StandardCharsets;

/**
 * Reads what a {@link WireWriter} wrote, from bytes that may be hostile. Every read checks that
 * its bytes are there, and every length or count read from the input is checked, before anything
 * is allocated for it, against the bytes that remain (an element takes at least one byte) and
 * against the caller's bound: so a reader never allocates more than the input it was given, and
 * a frame of a few bytes that declares a huge string or list is refused at once. Everything it
 * refuses (truncated input, an overlong varint, a length over its bound) throws a
 * {@link SecurityException} whose message starts "malformed frame". Not thread-safe.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class WireReader {

    private final byte[] buf;
    private int pos;
    private final int end;

    /** A reader of {@code length} bytes of {@code buf} from {@code offset}. */
    public WireReader(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset > buf.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + " in " + buf.length);
        }
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    /** The bytes not read yet. */
    public int remaining() {
        return end - pos;
    }

    /** A refusal of this input, for the codec and for transports' own fields. */
    public static SecurityException malformed(String why) {
        return new SecurityException("malformed frame: " + why);
    }

    /** Throws unless every byte has been read. */
    public void expectEnd() {
        if (pos != end) {
            throw malformed((end - pos) + " bytes after the last message");
        }
    }

    /** One unsigned byte. */
    public int u8() {
        if (pos >= end) {
            throw malformed("truncated");
        }
        return buf[pos++] & 0xFF;
    }

    /** A boolean written by {@link WireWriter#bool}; any byte but 0 or 1 is refused. */
    public boolean bool() {
        int b = u8();
        if (b > 1) {
            throw malformed("boolean byte " + b);
        }
        return b == 1;
    }

    /** An unsigned LEB128 {@code long}; more than 10 bytes is refused. */
    public long varLong() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw malformed("varint longer than 10 bytes");
    }

    /** A zig-zag encoded {@code long}. */
    public long zigZag() {
        long v = varLong();
        return (v >>> 1) ^ -(v & 1);
    }

    /** A zig-zag encoded {@code int}; a value outside the {@code int} range is refused. */
    public int zigZagInt() {
        long v = zigZag();
        if (v != (int) v) {
            throw malformed("integer " + v + " out of range");
        }
        return (int) v;
    }

    /** An 8-byte big-endian {@code long}. */
    public long fixed64() {
        if (end - pos < 8) {
            throw malformed("truncated");
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    /**
     * A count of elements that each take at least {@code minBytesEach} bytes: at most
     * {@code max} and at most what the remaining bytes can hold.
     */
    public int count(int max, int minBytesEach, String what) {
        long n = varLong();
        if (n < 0 || n > max || n * minBytesEach > remaining()) {
            throw malformed(what + " count " + n + " over its bound of " + Math.min(max, remaining() / minBytesEach));
        }
        return (int) n;
    }

    /** The length-plus-one prefix of a string or byte array, checked; -1 for {@code null}. */
    private int length(int max, String what) {
        long n = varLong() - 1;
        if (n < -1 || n > max || n > remaining()) {
            throw malformed(what + " of " + n + " bytes over its bound of " + Math.min(max, remaining()));
        }
        return (int) n;
    }

    /**
     * A string or {@code null} of at most {@code maxBytes} encoded bytes, as
     * {@link WireWriter#string} wrote it; an invalid sequence is refused.
     */
    public String string(int maxBytes, String what) {
        int n = length(maxBytes, what);
        if (n < 0) {
            return null;
        }
        int start = pos;
        int stop = pos + n;
        pos = stop;
        boolean ascii = true;
        for (int i = start; i < stop && ascii; i++) {
            ascii = buf[i] >= 0;
        }
        if (ascii) {
            return new String(buf, start, n, StandardCharsets.ISO_8859_1);
        }
        char[] chars = new char[n];
        int count = 0;
        for (int i = start; i < stop; ) {
            int b = buf[i++] & 0xFF;
            if (b < 0x80) {
                chars[count++] = (char) b;
            } else if ((b & 0xE0) == 0xC0 && i < stop && (buf[i] & 0xC0) == 0x80) {
                chars[count++] = (char) ((b & 0x1F) << 6 | buf[i++] & 0x3F);
            } else if ((b & 0xF0) == 0xE0 && i + 1 < stop && (buf[i] & 0xC0) == 0x80 && (buf[i + 1] & 0xC0) == 0x80) {
                chars[count++] = (char) ((b & 0x0F) << 12 | (buf[i] & 0x3F) << 6 | buf[i + 1] & 0x3F);
                i += 2;
            } else {
                throw malformed(what + " is not a valid string encoding");
            }
        }
        return new String(chars, 0, count);
    }

    /** A string of at most {@code maxBytes} encoded bytes; {@code null} is refused. */
    public String nonNullString(int maxBytes, String what) {
        String s = string(maxBytes, what);
        if (s == null) {
            throw malformed(what + " missing");
        }
        return s;
    }

    /** A byte array or {@code null} of at most {@code maxBytes}. */
    public byte[] bytes(int maxBytes, String what) {
        int n = length(maxBytes, what);
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        System.arraycopy(buf, pos, b, 0, n);
        pos += n;
        return b;
    }
}
