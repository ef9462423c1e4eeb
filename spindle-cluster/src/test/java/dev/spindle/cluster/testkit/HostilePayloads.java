/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamConstants;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * What an attacker sends a deserialiser, for the transports' attack tests: each payload is
 * cheap to make and costly (in time or memory) to read without limits. A transport wraps it in
 * its own frame.
 */
public final class HostilePayloads {

    private HostilePayloads() {
    }

    /**
     * Nested sets whose deserialisation hashes about 2^depth times (a well-known denial of
     * service): small on the wire, unbounded work for a reader without a depth limit.
     */
    public static Set<Object> hashBomb(int depth) {
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
        return root;
    }

    /** {@code o} with Java serialisation, unchecked. */
    public static byte[] javaSerialize(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * {@code BigInteger.TEN} Java-serialised as if by another version of the class (its
     * serialVersionUID changed in the stream): a value of a class the allow-list allows that this
     * member cannot read, as one written by a member of another build.
     */
    public static byte[] bigIntegerOfAnotherVersion() {
        byte[] stream = javaSerialize(java.math.BigInteger.TEN);
        long uid = ObjectStreamClass.lookup(java.math.BigInteger.class).getSerialVersionUID();
        byte[] mark = ByteBuffer.allocate(8).putLong(uid).array();
        for (int i = 0; i + 8 <= stream.length; i++) {
            if (Arrays.equals(stream, i, i + 8, mark, 0, 8)) {
                ByteBuffer.wrap(stream, i, 8).putLong(uid + 1);
                return stream;
            }
        }
        throw new AssertionError("BigInteger's serialVersionUID is not in its stream");
    }

    /** The marker length {@link #withHugeArray} looks for: a {@code byte[0x1234]} in the stream. */
    public static final int ARRAY_MARKER = 0x1234;

    /**
     * A Java serialisation stream of {@code stream}, which holds a {@code byte[}{@value #ARRAY_MARKER}{@code ]}
     * (see {@link #ARRAY_MARKER}), with that array's declared length raised to
     * {@code Integer.MAX_VALUE - 8} and the stream cut 16 bytes later: a reader that allocated
     * before checking would ask for 2 GiB.
     *
     * @throws IllegalStateException if the stream holds no such array
     */
    public static byte[] withHugeArray(byte[] stream) {
        byte[] lengthField = ByteBuffer.allocate(4).putInt(ARRAY_MARKER).array();
        for (int i = 0; i + 4 <= stream.length; i++) {
            if (Arrays.equals(stream, i, i + 4, lengthField, 0, 4)) {
                byte[] body = stream.clone();
                ByteBuffer.wrap(body, i, 4).putInt(Integer.MAX_VALUE - 8);
                return Arrays.copyOf(body, i + 4 + 16);
            }
        }
        throw new IllegalStateException("no array of " + ARRAY_MARKER + " bytes in the stream");
    }

    /**
     * A Java serialisation stream of {@code bytes} bytes: a chain of {@code depth} {@code Object[]},
     * each declaring {@code length} elements and each the first element of the one before, in 10
     * bytes apiece, then zeros to the end. It never reads whole (no array's elements follow), but
     * a reader that bounds each array alone by the stream's length allocates every array of the
     * chain first: {@code depth * length} references for {@code bytes} bytes received.
     *
     * @throws IllegalArgumentException if the chain does not fit in {@code bytes}
     */
    public static byte[] nestedArrayChain(int depth, int length, int bytes) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buf)) {
            out.writeShort(ObjectStreamConstants.STREAM_MAGIC);
            out.writeShort(ObjectStreamConstants.STREAM_VERSION);
            // the first array carries Object[]'s class descriptor (the stream's first handle) ...
            out.writeByte(ObjectStreamConstants.TC_ARRAY);
            out.writeByte(ObjectStreamConstants.TC_CLASSDESC);
            out.writeUTF(Object[].class.getName());
            out.writeLong(ObjectStreamClass.lookup(Object[].class).getSerialVersionUID());
            out.writeByte(ObjectStreamConstants.SC_SERIALIZABLE);
            out.writeShort(0);
            out.writeByte(ObjectStreamConstants.TC_ENDBLOCKDATA);
            out.writeByte(ObjectStreamConstants.TC_NULL);
            out.writeInt(length);
            // ... and each nested one refers back to it
            for (int i = 1; i < depth; i++) {
                out.writeByte(ObjectStreamConstants.TC_ARRAY);
                out.writeByte(ObjectStreamConstants.TC_REFERENCE);
                out.writeInt(ObjectStreamConstants.baseWireHandle);
                out.writeInt(length);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (buf.size() > bytes) {
            throw new IllegalArgumentException("a chain of " + depth + " arrays takes " + buf.size() + " bytes");
        }
        return Arrays.copyOf(buf.toByteArray(), bytes);
    }
}
