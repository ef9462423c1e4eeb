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
 * a frame of a few bytes that declares a huge string or list is refused at once. The empty string
 * and the one-character ASCII strings are shared, not allocated, so that a list of them (a byte
 * or two each on the wire) costs the receiver a list slot each, not a String and its array. Everything it
 * refuses (truncated input, an overlong varint, a length over its bound) throws a
 * {@link SecurityException} whose message starts "malformed frame". Not thread-safe.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class WireReader {

    /** The one-character ASCII strings, each a string's decoded form. */
    private static final String[] ONE_CHAR = new String[128];

    static {
        for (int c = 0; c < ONE_CHAR.length; c++) {
            ONE_CHAR[c] = String.valueOf((char) c);
        }
    }

    private final byte[] buf;
    private int pos;
    private final int end;

    /**
     * A reader of {@code length} bytes of {@code buf} from {@code offset}. The array is not
     * copied: it must not change while the reader is used.
     *
     * @param buf the input, not {@code null}
     * @param offset the index in {@code buf} of the first byte to read, 0 or more
     * @param length how many bytes from {@code offset} the reader may read, 0 or more
     * @throws IndexOutOfBoundsException if {@code offset} or {@code length} is negative, or the
     *         range runs past the end of {@code buf}
     * @throws NullPointerException if {@code buf} is {@code null}
     */
    public WireReader(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset > buf.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + " in " + buf.length);
        }
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    /**
     * The bytes not read yet.
     *
     * @return the number of bytes of the range not read yet, 0 once all are read
     */
    public int remaining() {
        return end - pos;
    }

    /**
     * A refusal of this input, for the codec and for transports' own fields. It is returned, not
     * thrown, so that the caller writes {@code throw WireReader.malformed(...)}.
     *
     * @param why what is wrong with the input, appended to the message
     * @return a new exception whose message is {@code "malformed frame: "} followed by {@code why}
     */
    public static SecurityException malformed(String why) {
        return new SecurityException("malformed frame: " + why);
    }

    /**
     * Throws unless every byte has been read: a frame must hold nothing after its last field.
     *
     * @throws SecurityException "malformed frame" if any byte of the range is left unread
     */
    public void expectEnd() {
        if (pos != end) {
            throw malformed((end - pos) + " bytes after the last message");
        }
    }

    /**
     * One unsigned byte.
     *
     * @return the byte, 0..255
     * @throws SecurityException "malformed frame: truncated" if the input ends first
     */
    public int u8() {
        if (pos >= end) {
            throw malformed("truncated");
        }
        return buf[pos++] & 0xFF;
    }

    /**
     * A boolean written by {@link WireWriter#bool}; any byte but 0 or 1 is refused.
     *
     * @return {@code true} for the byte 1, {@code false} for 0
     * @throws SecurityException "malformed frame" if the input ends first or the byte is
     *         neither 0 nor 1
     */
    public boolean bool() {
        int b = u8();
        if (b > 1) {
            throw malformed("boolean byte " + b);
        }
        return b == 1;
    }

    /**
     * An unsigned LEB128 {@code long}; more than 10 bytes is refused.
     *
     * @return the value; negative if the encoding set bit 63 (callers that read a count or a
     *         length check for that)
     * @throws SecurityException "malformed frame" if the input ends first or the varint runs
     *         past 10 bytes
     */
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

    /**
     * A zig-zag encoded {@code long}, as {@link WireWriter#zigZag} wrote it.
     *
     * @return the value, any {@code long}
     * @throws SecurityException "malformed frame" if the input ends first or the varint runs
     *         past 10 bytes
     */
    public long zigZag() {
        long v = varLong();
        return (v >>> 1) ^ -(v & 1);
    }

    /**
     * A zig-zag encoded {@code int}; a value outside the {@code int} range is refused.
     *
     * @return the value, any {@code int}
     * @throws SecurityException "malformed frame" if the input ends first, the varint runs past
     *         10 bytes, or the value is outside the {@code int} range
     */
    public int zigZagInt() {
        long v = zigZag();
        if (v != (int) v) {
            throw malformed("integer " + v + " out of range");
        }
        return (int) v;
    }

    /**
     * An 8-byte big-endian {@code long}, as {@link WireWriter#fixed64} wrote it.
     *
     * @return the value, any {@code long}
     * @throws SecurityException "malformed frame: truncated" if fewer than 8 bytes remain
     */
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
     * {@code max} and at most what the remaining bytes can hold, so that a list or array of
     * that many elements may be allocated at once.
     *
     * @param max the largest count the caller accepts, 0 or more
     * @param minBytesEach the fewest encoded bytes one element takes, 1 or more (a value under 1
     *        disables the check against the remaining bytes; with 0, a count over {@code max}
     *        throws {@link ArithmeticException} while the message is built)
     * @param what what is counted, for the message (e.g. {@code "message"})
     * @return the count, 0..{@code max}
     * @throws SecurityException "malformed frame" if the input ends first, or the count is
     *         negative, over {@code max}, or more than {@link #remaining()} divided by
     *         {@code minBytesEach}
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
     *
     * @param maxBytes the longest encoded length accepted, in bytes (not chars), 0 or more
     * @param what what the string is, for the message (e.g. {@code "key"})
     * @return the string, or {@code null} if {@code null} was written
     * @throws SecurityException "malformed frame" if the input ends first, the length is over
     *         {@code maxBytes} or over the remaining bytes, or the bytes are not one-, two- or
     *         three-byte UTF-8 sequences in their shortest form (surrogates, which the writer
     *         encodes one by one, are accepted)
     */
    public String string(int maxBytes, String what) {
        int n = length(maxBytes, what);
        if (n < 0) {
            return null;
        }
        if (n <= 1 && (n == 0 || buf[pos] >= 0)) {
            // shared, not allocated: a list of empty or one-letter keys costs a byte or two each on
            // the wire, and a String and its array each (48 bytes) decoded, so a crafted frame of
            // them made the receiver allocate over 30 times its size
            pos += n;
            return n == 0 ? "" : ONE_CHAR[buf[pos - 1]];
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
            } else if (b >= 0xC2 && b <= 0xDF && i < stop && (buf[i] & 0xC0) == 0x80) {
                chars[count++] = (char) ((b & 0x1F) << 6 | buf[i++] & 0x3F);
            } else if ((b & 0xF0) == 0xE0 && i + 1 < stop && (buf[i] & 0xC0) == 0x80 && (buf[i + 1] & 0xC0) == 0x80
                    && (b != 0xE0 || (buf[i] & 0xFF) >= 0xA0)) {
                chars[count++] = (char) ((b & 0x0F) << 12 | (buf[i] & 0x3F) << 6 | buf[i + 1] & 0x3F);
                i += 2;
            } else {
                // an overlong form too (C0 or C1 first, or E0 then under A0: a character in more
                // bytes than it needs), which the writer never makes: read as its character, the
                // bytes C0 AF were "/" and C0 80 NUL, a string that no strict decoder reads
                throw malformed(what + " is not a valid string encoding");
            }
        }
        return new String(chars, 0, count);
    }

    /**
     * A string of at most {@code maxBytes} encoded bytes; {@code null} is refused.
     *
     * @param maxBytes the longest encoded length accepted, in bytes (not chars), 0 or more
     * @param what what the string is, for the message (e.g. {@code "key"})
     * @return the string, never {@code null}
     * @throws SecurityException "malformed frame" for everything {@link #string} refuses, and
     *         if {@code null} was written
     */
    public String nonNullString(int maxBytes, String what) {
        String s = string(maxBytes, what);
        if (s == null) {
            throw malformed(what + " missing");
        }
        return s;
    }

    /**
     * A byte array or {@code null} of at most {@code maxBytes}, as {@link WireWriter#bytes}
     * wrote it.
     *
     * @param maxBytes the longest array accepted, in bytes, 0 or more
     * @param what what the bytes are, for the message (e.g. {@code "value"})
     * @return a new array holding a copy of the bytes, or {@code null} if {@code null} was written
     * @throws SecurityException "malformed frame" if the input ends first, or the length is over
     *         {@code maxBytes} or over the remaining bytes
     */
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
