/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.InvalidClassException;
import java.io.ObjectInputFilter;

/**
 * The bytes of a user object nested in a message (a task function, a result, a fetched value),
 * as every transport between JVMs writes and reads them: the values tasks return most often
 * ({@code null}, {@link Long}, {@link Integer}, {@link Double}, {@link Boolean}, {@link String},
 * {@code byte[]}) in a few bytes of their own, anything else Java-serialised and read back only
 * through the transport's allow-list filter ({@link JavaSerial}).
 *
 * <p>The two forms cannot be confused: a Java serialisation stream starts with the byte
 * {@code 0xAC} ({@code STREAM_MAGIC}), which is no compact tag; a compact value is a tag byte
 * and its payload, read with {@link WireReader}'s bounds (nothing allocated beyond the input) and
 * refused if a byte is left over. A compact value runs no deserialiser and names no class, so it
 * needs no allow-list entry. Stateless and thread-safe.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class ValueCodec {

    private static final int NULL = 0x01;
    private static final int LONG = 0x02;
    private static final int INTEGER = 0x03;
    private static final int DOUBLE = 0x04;
    private static final int FALSE = 0x05;
    private static final int TRUE = 0x06;
    private static final int STRING = 0x07;
    private static final int BYTES = 0x08;

    private ValueCodec() {
    }

    /**
     * The bytes of {@code value}: its compact form, or its Java serialisation of at most
     * {@code limit} bytes.
     *
     * @param value the value, or {@code null}; a {@link Long}, {@link Integer}, {@link Double},
     *        {@link Boolean}, {@link String} or {@code byte[]} (exactly those classes) takes the
     *        compact form, anything else must be {@link java.io.Serializable}
     * @param limit the most bytes the result may have, either form
     * @return a new array: a compact value (its first byte a tag under {@code 0x80}) or a Java
     *         serialisation stream (its first byte {@code 0xAC})
     * @throws IllegalArgumentException if it is not serialisable or its bytes exceed the limit
     */
    public static byte[] write(Object value, int limit) {
        WireWriter out = compact(value);
        if (out == null) {
            return JavaSerial.serialize(value, limit, "value");
        }
        if (out.size() > limit) {
            throw new IllegalArgumentException("is " + out.size() + " bytes encoded, over the value limit of " + limit);
        }
        return out.toByteArray();
    }

    private static WireWriter compact(Object value) {
        if (value == null) {
            return new WireWriter(16).u8(NULL);
        }
        Class<?> c = value.getClass();
        if (c == Long.class) {
            return new WireWriter(16).u8(LONG).zigZag((Long) value);
        }
        if (c == Integer.class) {
            return new WireWriter(16).u8(INTEGER).zigZag((Integer) value);
        }
        if (c == Double.class) {
            return new WireWriter(16).u8(DOUBLE).fixed64(Double.doubleToRawLongBits((Double) value));
        }
        if (c == Boolean.class) {
            return new WireWriter(16).u8((Boolean) value ? TRUE : FALSE);
        }
        if (c == String.class) {
            String s = (String) value;
            return new WireWriter(s.length() + 8).u8(STRING).string(s);
        }
        if (c == byte[].class) {
            byte[] b = (byte[]) value;
            return new WireWriter(b.length + 8).u8(BYTES).bytes(b);
        }
        return null;
    }

    /**
     * Reads what {@link #write} wrote: a compact value, or a Java stream through {@code filter}.
     *
     * @param bytes the bytes {@link #write} wrote (or a peer claims it did), not {@code null}
     * @param filter the allow-list a Java stream is read through (unused for a compact value)
     * @return the value, {@code null} included
     * @throws InvalidClassException if the filter refused a class or a limit of a Java stream
     * @throws SecurityException if the bytes are malformed or unreadable: for a compact value
     *         (message "malformed frame: ...") an empty array, an unknown tag, a truncated
     *         payload, a {@code null} string or array, or bytes after the value; for a Java
     *         stream any other failure to read it
     */
    public static Object read(byte[] bytes, ObjectInputFilter filter) throws InvalidClassException {
        if (bytes.length > 0 && bytes[0] == (byte) 0xAC) {
            return JavaSerial.read(bytes, 0, bytes.length, filter);
        }
        WireReader in = new WireReader(bytes, 0, bytes.length);
        Object value;
        int tag = in.u8();
        switch (tag) {
            case NULL -> value = null;
            case LONG -> value = in.zigZag();
            case INTEGER -> value = in.zigZagInt();
            case DOUBLE -> value = Double.longBitsToDouble(in.fixed64());
            case FALSE -> value = Boolean.FALSE;
            case TRUE -> value = Boolean.TRUE;
            case STRING -> value = in.nonNullString(Integer.MAX_VALUE, "string value");
            case BYTES -> {
                value = in.bytes(Integer.MAX_VALUE, "byte array value");
                if (value == null) {
                    throw WireReader.malformed("byte array value missing");
                }
            }
            default -> throw WireReader.malformed("unknown value tag 0x" + Integer.toHexString(tag));
        }
        in.expectEnd();
        return value;
    }
}
