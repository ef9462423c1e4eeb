/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.testkit.HostilePayloads;
import java.nio.ByteBuffer;

/** Hostile frames a member with a valid certificate might send: {@link HostilePayloads} in Spindle's frame. */
final class Hostile {

    private Hostile() {
    }

    /** A frame whose body is a nested-set hash bomb: unbounded, reading it would hash 2^depth times. */
    static byte[] hashBomb(int depth) {
        return frame(javaSerialize(new Wire.Frame(Wire.COORDINATOR, HostilePayloads.hashBomb(depth))));
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
        byte[] marker = new byte[HostilePayloads.ARRAY_MARKER];
        return frame(HostilePayloads.withHugeArray(javaSerialize(new Wire.Frame(Wire.COORDINATOR, marker))));
    }

    /** Frames a body with a correct header. */
    static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(WireCodec.HEADER_BYTES + body.length).putInt(WireCodec.MAGIC).putInt(body.length)
                .put(body).array();
    }

    static byte[] javaSerialize(Object o) {
        return HostilePayloads.javaSerialize(o);
    }
}
