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
import java.util.Arrays;

/**
 * An executor task that carries one signed frame to a member's {@link Endpoint}, or the signed
 * frame a call returns ({@link FrameReply}). It uses typed
 * Hazelcast serialisation (a factory id and class id, then a length and the bytes), so receiving
 * it runs no Java deserialisation; the endpoint verifies the frame. The declared length is checked
 * against the member's limit before anything is allocated: a task of a few bytes that declares a
 * huge frame is refused (counted as oversized) and leaves {@link #frame} {@code null}; one within
 * the limit is read as its bytes arrive ({@link #readFully}), so a task that declares more than
 * it carries costs about what it carries, not the declared length.
 */
abstract class FrameTask implements IdentifiedDataSerializable, HazelcastInstanceAware {

    byte[] frame;
    private transient HazelcastInstance instance;
    /** Set by the receiving member's factory; a task built here for sending has none. */
    private transient SpindleSerializables receiver;

    FrameTask() {
    }

    /** Made by {@code receiver}'s factory, to be read under its limit. */
    FrameTask(SpindleSerializables receiver) {
        this.receiver = receiver;
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
        out.writeInt(frame.length);
        out.write(frame);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int length = in.readInt();
        int limit = receiver == null ? HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES : receiver.maxFrameBytes();
        if (length < 0 || length > limit) {
            if (receiver != null) {
                receiver.oversized(length, limit);
            }
            frame = null;                     // the rest of the packet is discarded with it
            return;
        }
        frame = readFully(in, length);
    }

    /** The first array {@link #readFully} allocates: a frame up to this size is read in one. */
    static final int FIRST_CHUNK = 64 * 1024;

    /**
     * Reads {@code length} bytes, allocating as they arrive rather than all at once: the length is
     * only declared (within the limit) and a task of a few bytes may declare the whole limit, so
     * the array grows, doubling, from {@value #FIRST_CHUNK} bytes once the bytes before have been
     * read. What is allocated stays within a few times what arrived.
     *
     * <p>Each chunk's last byte is read on its own: a member's in-memory input fills what it has
     * and returns when asked for more than it holds (only a read that starts at its end throws),
     * so a short task would otherwise read as a frame of the declared length padded with zeros.
     *
     * @throws java.io.EOFException if the input ends first
     */
    static byte[] readFully(ObjectDataInput in, int length) throws IOException {
        byte[] b = new byte[Math.min(length, FIRST_CHUNK)];
        int read = 0;
        while (true) {
            if (b.length > read) {
                in.readFully(b, read, b.length - read - 1);
                b[b.length - 1] = in.readByte();   // throws EOFException where readFully fell short
            }
            read = b.length;
            if (read == length) {
                return b;
            }
            b = Arrays.copyOf(b, (int) Math.min(length, 2L * read));
        }
    }
}
