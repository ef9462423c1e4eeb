/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import org.apache.pekko.serialization.JSerializer;

/**
 * An attacker's serializer: it claims {@link WireSerializer}'s id and sends whatever bytes it is
 * given, so a receiver decodes them with Spindle's codec.
 */
final class RawSerializer extends JSerializer {

    /** Bytes to send as they are. */
    record RawBytes(byte[] bytes) {
    }

    @Override
    public int identifier() {
        return WireSerializer.ID;
    }

    @Override
    public boolean includeManifest() {
        return false;
    }

    @Override
    public byte[] toBinary(Object o) {
        return ((RawBytes) o).bytes();
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
        return new RawBytes(bytes);
    }
}
