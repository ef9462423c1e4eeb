/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * Hazelcast's typed factory for Spindle's executor tasks and the replies of its calls
 * ({@link FrameReply}); any other class id is refused. One per member: it hands the member's
 * frame-size limit to the tasks and replies it makes and counts the frames refused for their
 * declared length.
 */
final class SpindleSerializables implements DataSerializableFactory {

    static final int FACTORY_ID = 0x5D1E;
    static final int DELIVER = 1;
    static final int FETCH = 2;
    static final int HANDSHAKE = 3;
    static final int REPLY = 4;

    private final int maxFrameBytes;
    private final Offences offences;

    SpindleSerializables(int maxFrameBytes, Offences offences) {
        this.maxFrameBytes = maxFrameBytes;
        this.offences = offences;
    }

    @Override
    public IdentifiedDataSerializable create(int typeId) {
        switch (typeId) {
            case DELIVER:
                return new Deliver(this);
            case FETCH:
                return new FetchCall(this);
            case HANDSHAKE:
                return new HandshakeCall(this);
            case REPLY:
                return new FrameReply(this);
            default:
                throw new IllegalArgumentException("unknown Spindle type id " + typeId);
        }
    }

    int maxFrameBytes() {
        return maxFrameBytes;
    }

    void oversized(int declared, int limit) {
        // the sending member is not known at this layer: one offender, logged once
        offences.record(Offences.Kind.OVERSIZED, "a member", "a task or reply declaring a frame of " + declared
                + " bytes (limit " + limit + "), refused before allocation");
    }
}
