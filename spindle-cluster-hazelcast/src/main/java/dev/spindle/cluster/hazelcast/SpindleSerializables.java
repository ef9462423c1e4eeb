/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/** Hazelcast's typed factory for Spindle's two executor tasks; any other class id is refused. */
final class SpindleSerializables implements DataSerializableFactory {

    static final int FACTORY_ID = 0x5D1E;
    static final int DELIVER = 1;
    static final int FETCH = 2;

    @Override
    public IdentifiedDataSerializable create(int typeId) {
        switch (typeId) {
            case DELIVER:
                return new Deliver();
            case FETCH:
                return new FetchCall();
            default:
                throw new IllegalArgumentException("unknown Spindle type id " + typeId);
        }
    }
}
