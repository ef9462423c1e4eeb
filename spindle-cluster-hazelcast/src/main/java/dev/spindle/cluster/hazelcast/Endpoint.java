/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;

/**
 * The Spindle side of a member, found by the Hazelcast tasks {@link Deliver} and
 * {@link FetchCall} in the instance's user context. Both take raw signed frames: the endpoint
 * verifies them.
 */
interface Endpoint {

    String USER_CONTEXT_KEY = "dev.spindle.cluster.endpoint";

    /** Handles a signed message frame; drops (and counts) what does not verify. */
    void onFrame(byte[] frame);

    /** Answers a signed fetch request with a signed reply, or {@code null} if it does not verify. */
    byte[] onFetch(byte[] frame);

    /** Answers one step of the {@link Handshake}; {@code null} if it is refused or malformed. */
    byte[] onHandshake(byte[] message);

    static Endpoint of(HazelcastInstance instance) {
        return instance == null ? null : (Endpoint) instance.getUserContext().get(USER_CONTEXT_KEY);
    }
}
