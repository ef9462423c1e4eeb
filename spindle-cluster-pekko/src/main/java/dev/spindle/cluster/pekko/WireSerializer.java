/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import org.apache.pekko.serialization.JSerializer;

/**
 * Pekko's serializer for {@link Wire.Frame}, the only Spindle message type on the wire (sent
 * already encoded and sealed, as {@link Wire.Encoded}), so that Pekko's own Java serialisation
 * stays off. Deserialising never throws on hostile bytes: it hands the actor a
 * {@link Wire.Received} (whose authenticator the receiver checks) or a {@link Wire.Rejected},
 * which the actor counts and logs with the sender.
 */
final class WireSerializer extends JSerializer {

    /** Pekko's id for this serializer; Pekko reserves 0..40 for its own. */
    static final int ID = 0x5D1E;

    private final WireCodec codec;

    WireSerializer(WireCodec codec) {
        this.codec = codec;
    }

    @Override
    public int identifier() {
        return ID;
    }

    @Override
    public boolean includeManifest() {
        return false;
    }

    @Override
    public byte[] toBinary(Object o) {
        if (o instanceof Wire.Encoded encoded) {
            return encoded.bytes();
        }
        // a frame travels encoded and sealed by its sender (Outbox), never encoded here unsealed
        throw new IllegalArgumentException("only frames encoded by their sender are serialised here, not "
                + o.getClass().getName());
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
        return codec.decode(bytes);
    }
}
