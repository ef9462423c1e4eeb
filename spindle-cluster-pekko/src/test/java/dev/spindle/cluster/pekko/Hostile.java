/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WireWriter;
import dev.spindle.cluster.testkit.HostilePayloads;
import java.nio.ByteBuffer;
import java.util.List;

/** Hostile frames a member with a valid certificate might send: {@link HostilePayloads} in Spindle's frame. */
final class Hostile {

    private Hostile() {
    }

    /** A nested-set hash bomb as a result's bytes: unbounded, reading it would hash 2^depth times. */
    static byte[] hashBombValue(int depth) {
        return javaSerialize(HostilePayloads.hashBomb(depth));
    }

    /** A well-formed frame of worker 7's result whose value is {@link #hashBombValue}. */
    static byte[] hashBomb(int depth) {
        return resultFrame(hashBombValue(depth));
    }

    /** A frame whose header declares a body of {@code declared} bytes, followed by a few. */
    static byte[] lyingLength(int declared) {
        return ByteBuffer.allocate(WireCodec.HEADER_BYTES + 16).putInt(WireCodec.MAGIC).putInt(declared).array();
    }

    /**
     * A frame whose body declares a byte array of {@code Integer.MAX_VALUE - 8} elements (the
     * stream then ends): a reader that allocated first would ask for 2 GiB.
     */
    static byte[] hugeArrayValue() {
        return HostilePayloads.withHugeArray(javaSerialize(new byte[HostilePayloads.ARRAY_MARKER]));
    }

    /** A well-formed frame of worker 7's result whose value is {@link #hugeArrayValue}. */
    static byte[] hugeArray() {
        return resultFrame(hugeArrayValue());
    }

    /** A frame to the coordinator with worker 7's result of {@code value}'s bytes, as any member could write it. */
    static byte[] resultFrame(byte[] value) {
        WireWriter out = new WireWriter().zigZag(Wire.COORDINATOR).fixed64(1).varLong(Wire.UNNUMBERED);
        MessageCodec.writeBodies(out, List.of(new WireMessage.Finished(7, "hostile", 1, value, 0, 0)), MessageCodec.NONE);
        return frame(out.toByteArray());
    }

    /** Frames a body with a correct header and an authenticator of zeros (no member's seal). */
    static byte[] frame(byte[] body) {
        int length = dev.spindle.cluster.FrameMac.BYTES + body.length;
        return ByteBuffer.allocate(WireCodec.HEADER_BYTES + length).putInt(WireCodec.MAGIC).putInt(length)
                .position(WireCodec.SIGNED_OFFSET).put(body).array();
    }

    static byte[] javaSerialize(Object o) {
        return HostilePayloads.javaSerialize(o);
    }
}
