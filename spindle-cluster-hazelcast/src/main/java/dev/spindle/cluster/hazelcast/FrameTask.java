/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.io.IOException;

/**
 * An executor task that carries one signed frame to a member's {@link Endpoint}. It uses typed
 * Hazelcast serialisation (a factory id and class id, then a byte array), so receiving it runs no
 * Java deserialisation; the endpoint verifies the frame.
 */
abstract class FrameTask implements IdentifiedDataSerializable, HazelcastInstanceAware {

    byte[] frame;
    private transient HazelcastInstance instance;

    FrameTask() {
    }

    FrameTask(byte[] frame) {
        this.frame = frame;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance instance) {
        this.instance = instance;
    }

    /** The endpoint of the member this task runs on, or {@code null} before it is installed. */
    Endpoint endpoint() {
        return Endpoint.of(instance);
    }

    @Override
    public int getFactoryId() {
        return SpindleSerializables.FACTORY_ID;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeByteArray(frame);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        frame = in.readByteArray();
    }
}
