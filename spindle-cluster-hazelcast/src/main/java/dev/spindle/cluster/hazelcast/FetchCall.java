/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.util.concurrent.Callable;

/**
 * A signed fetch request run on the holder member; it returns the holder's signed reply as a
 * {@link FrameReply} (read under the requester's frame limit), or {@code null} when the request
 * does not verify.
 */
final class FetchCall extends FrameTask implements Callable<FrameReply> {

    FetchCall() {
    }

    FetchCall(SpindleSerializables receiver) {
        super(receiver);
    }

    FetchCall(byte[] frame) {
        super(frame);
    }

    @Override
    public FrameReply call() {
        Endpoint endpoint = endpoint();
        byte[] reply = endpoint == null || frame == null ? null : endpoint.onFetch(frame);
        return reply == null ? null : new FrameReply(reply);
    }

    @Override
    public int getClassId() {
        return SpindleSerializables.FETCH;
    }
}
