/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What travels inside a signed frame. User objects (task functions, results, fetched values) are
 * nested as separately serialised bytes, so that a function or value the allow-list refuses
 * fails only its own task, with the key still known, instead of the whole frame.
 */
final class Wire {

    private Wire() {
    }

    /**
     * What a member signs: a body from {@code sender} to {@code to} ({@link #COORDINATOR} or a
     * worker id) in the coordinator's {@code session}, from the sender's {@code incarnation} (a
     * worker process's random non-zero number, proved in its handshake; {@link
     * #COORDINATOR_INCARNATION} for the coordinator, whose incarnation is the session), with the
     * sender's next sequence number. The receiver accepts it only in its own session, from a
     * proven sender's current incarnation, once (see {@link Session}).
     */
    record Frame(UUID session, int sender, long incarnation, int to, long seq, Object body) implements Serializable {
    }

    /** The coordinator's frames' incarnation: a coordinator has one per session, named by the session id. */
    static final long COORDINATOR_INCARNATION = dev.spindle.cluster.Incarnations.NONE;

    static final int COORDINATOR = -1;

    /**
     * The coordinator tells the workers which member proved each worker id (by member UUID), and
     * under which incarnation.
     */
    record Members(Map<Integer, UUID> workers, Map<Integer, Long> incarnations) implements Serializable {
    }

    /** {@link dev.spindle.cluster.Message.Compute} with its function as bytes. */
    record Compute(String key, long attempt, byte[] function, List<String> dependencies,
                   Map<String, List<Integer>> holders, int priority) implements Serializable {
    }

    /** {@link dev.spindle.cluster.Message.TaskFinished} with its value as bytes. */
    record Finished(int worker, String key, long attempt, byte[] value, long bytes, long nanos)
            implements Serializable {
    }

    /** A worker asks a holder for a value. */
    record FetchRequest(String key, int holder, int requester) implements Serializable {
    }

    /** The holder's answer: the value's bytes, or {@code null} if it holds none. */
    record FetchReply(String key, int holder, byte[] value) implements Serializable {
    }
}
