/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

/** Delivers one signed message frame to the target member's {@link Endpoint#onFrame}. */
final class Deliver extends FrameTask implements Runnable {

    Deliver() {
    }

    Deliver(SpindleSerializables receiver) {
        super(receiver);
    }

    Deliver(byte[] frame) {
        super(frame);
    }

    @Override
    public void run() {
        Endpoint endpoint = endpoint();
        if (endpoint != null && frame != null) {
            endpoint.onFrame(frame);
        }
    }

    @Override
    public int getClassId() {
        return SpindleSerializables.DELIVER;
    }
}
