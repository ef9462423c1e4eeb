/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.util.concurrent.Callable;

/**
 * One step of the {@link Handshake}, run on the worker member: a challenge (answered with the
 * worker's response) or the coordinator's verdict (answered with an empty array, or {@code null}
 * when refused).
 *
 * <p>Its answer stays a plain {@code byte[]}, unlike {@link FetchCall}'s bounded
 * {@link FrameReply}: an answer of Spindle's code is a response of 93 bytes or an empty
 * array, so a bound would only refuse answers it never gives, and a member that runs other code
 * chooses the type of its answer anyway (a {@code byte[]} declaring any length is read by
 * Hazelcast before the coordinator sees it; the module's README, "Security model").
 * {@link Handshake#response} checks the length of what arrives.
 */
final class HandshakeCall extends FrameTask implements Callable<byte[]> {

    HandshakeCall() {
    }

    HandshakeCall(SpindleSerializables receiver) {
        super(receiver);
    }

    HandshakeCall(byte[] message) {
        super(message);
    }

    @Override
    public byte[] call() {
        Endpoint endpoint = endpoint();
        return endpoint == null || frame == null ? null : endpoint.onHandshake(frame);
    }

    @Override
    public int getClassId() {
        return SpindleSerializables.HANDSHAKE;
    }
}
