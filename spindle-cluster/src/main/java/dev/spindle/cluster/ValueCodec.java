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
 * {@code byte[]}) in a few bytes of their own, the task function most often sent (a serialisable
 * lambda capturing only such scalars) as its descriptor and captured values ({@link LambdaForm},
 * read through the same allow-list filter), anything else Java-serialised and read back only
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
    private static final int LAMBDA = 0x09;

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
        WireWriter out = new WireWriter(value instanceof String s ? s.length() + 8
                : value instanceof byte[] b ? b.length + 8 : 16);
        if (writeScalar(out, value)) {
            return out;
        }
        if (value.getClass() == byte[].class) {
            return out.u8(BYTES).bytes((byte[]) value);
        }
        // a lambda: checked and written whole by LambdaForm, or nothing written and Java-serialised
        return LambdaForm.write(out.u8(LAMBDA), value) ? out : null;
    }

    /** Whether {@code value} is a scalar: {@code null}, or exactly a Long, Integer, Double, Boolean or String (immutable). */
    static boolean isScalar(Object value) {
        if (value == null) {
            return true;
        }
        Class<?> c = value.getClass();
        return c == Long.class || c == Integer.class || c == Double.class || c == Boolean.class || c == String.class;
    }

    /** Writes {@code value} tag first if it {@linkplain #isScalar is a scalar}; returns whether it was (nothing written if not). */
    static boolean writeScalar(WireWriter out, Object value) {
        if (value == null) {
            out.u8(NULL);
            return true;
        }
        Class<?> c = value.getClass();
        if (c == Long.class) {
            out.u8(LONG).zigZag((Long) value);
        } else if (c == Integer.class) {
            out.u8(INTEGER).zigZag((Integer) value);
        } else if (c == Double.class) {
            out.u8(DOUBLE).fixed64(Double.doubleToRawLongBits((Double) value));
        } else if (c == Boolean.class) {
            out.u8((Boolean) value ? TRUE : FALSE);
        } else if (c == String.class) {
            out.u8(STRING).string((String) value);
        } else {
            return false;
        }
        return true;
    }

    /** Reads a scalar, tag first, as {@link #writeScalar} wrote it; any other tag is refused ("malformed frame"). */
    static Object readScalar(WireReader in) {
        int tag = in.u8();
        return switch (tag) {
            case NULL -> null;
            case LONG -> in.zigZag();
            case INTEGER -> in.zigZagInt();
            case DOUBLE -> Double.longBitsToDouble(in.fixed64());
            case FALSE -> Boolean.FALSE;
            case TRUE -> Boolean.TRUE;
            case STRING -> in.nonNullString(Integer.MAX_VALUE, "string value");
            default -> throw WireReader.malformed("unknown value tag 0x" + Integer.toHexString(tag));
        };
    }

    /**
     * Reads what {@link #write} wrote: a compact value, or a Java stream through {@code filter}.
     *
     * @param bytes the bytes {@link #write} wrote (or a peer claims it did); {@code null}, which a
     *        frame may carry where a value is optional, is refused as malformed
     * @param filter the allow-list a Java stream is read through (unused for a compact value)
     * @return the value, {@code null} included
     * @throws InvalidClassException if the filter refused a class or a limit of a Java stream
     * @throws SecurityException if the bytes are malformed or unreadable: for a compact value
     *         (message "malformed frame: ...") an empty array, an unknown tag, a truncated
     *         payload, a {@code null} string or array, or bytes after the value, and
     *         {@code null} bytes; for a Java
     *         stream any other failure to read it
     */
    public static Object read(byte[] bytes, ObjectInputFilter filter) throws InvalidClassException {
        if (bytes == null) {
            // absent from a frame that may leave it out: refused as a peer's malformed value, which
            // the transports turn into the task's failure; a NullPointerException escaped them
            throw WireReader.malformed("value missing");
        }
        if (bytes.length > 0 && bytes[0] == (byte) 0xAC) {
            return JavaSerial.read(bytes, 0, bytes.length, filter);
        }
        WireReader in = new WireReader(bytes, 0, bytes.length);
        Object value;
        int tag = bytes.length == 0 ? -1 : bytes[0] & 0xFF;
        if (tag == BYTES) {
            in.u8();
            value = in.bytes(Integer.MAX_VALUE, "byte array value");
            if (value == null) {
                throw WireReader.malformed("byte array value missing");
            }
        } else if (tag == LAMBDA) {
            in.u8();
            value = LambdaForm.read(in, filter, bytes.length);
        } else {
            value = readScalar(in);           // refuses an empty array and an unknown tag
        }
        in.expectEnd();
        return value;
    }
}
