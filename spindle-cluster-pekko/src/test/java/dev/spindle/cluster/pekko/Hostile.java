/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/** Hostile frames a member with a valid certificate might send. */
final class Hostile {

    private Hostile() {
    }

    /** A frame whose body is a nested-set hash bomb: unbounded, reading it would hash 2^depth times. */
    static byte[] hashBomb(int depth) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < depth; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("x");
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return frame(javaSerialize(new Wire.Frame(Wire.COORDINATOR, root)));
    }

    /** A frame whose header declares a body of {@code declared} bytes, followed by a few. */
    static byte[] lyingLength(int declared) {
        return ByteBuffer.allocate(WireCodec.HEADER_BYTES + 16).putInt(WireCodec.MAGIC).putInt(declared).array();
    }

    /**
     * A frame whose body declares a byte array of {@code Integer.MAX_VALUE - 8} elements (the
     * stream then ends): a reader that allocated first would ask for 2 GiB.
     */
    static byte[] hugeArray() {
        byte[] marker = new byte[0x1234];
        byte[] body = javaSerialize(new Wire.Frame(Wire.COORDINATOR, marker));
        byte[] lengthField = {0, 0, 0x12, 0x34};
        for (int i = 0; i + 4 <= body.length; i++) {
            if (Arrays.equals(body, i, i + 4, lengthField, 0, 4)) {
                ByteBuffer.wrap(body, i, 4).putInt(Integer.MAX_VALUE - 8);
                return frame(Arrays.copyOf(body, i + 4 + 16));
            }
        }
        throw new IllegalStateException("no array length in the stream");
    }

    /** Frames a body with a correct header. */
    static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(WireCodec.HEADER_BYTES + body.length).putInt(WireCodec.MAGIC).putInt(body.length)
                .put(body).array();
    }

    static byte[] javaSerialize(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
