/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.Incarnations;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What travels between members, always as a {@link Frame} through {@link WireSerializer}. User
 * objects (task functions, results, fetched values) are nested as separately serialised bytes,
 * so that a function or value the allow-list refuses fails only its own task, with the key still
 * known, instead of the whole frame. Task errors travel as text ({@link Erred}), never as the
 * worker's exception object, whose class the coordinator might not allow.
 */
final class Wire {

    /** {@link Frame#to()} of a frame for the coordinator. */
    static final int COORDINATOR = -1;

    private Wire() {
    }

    /**
     * A frame addressed to {@code to} ({@link #COORDINATOR} or a worker id), sent by a process of
     * incarnation {@code incarnation} (a worker's, see {@link Roster}; {@link Incarnations#NONE}
     * from the coordinator); its body is one record below. A receiver acts on a worker's frame
     * only if it comes from that worker's member and current incarnation.
     */
    record Frame(int to, long incarnation, Object body) implements Serializable {
        /** A frame of the coordinator, which has no incarnation. */
        Frame(int to, Object body) {
            this(to, Incarnations.NONE, body);
        }
    }

    /** A frame already encoded by its sender ({@link Outbox}); the serializer passes the bytes on. */
    record Encoded(byte[] bytes) {
    }

    /** What the decoder makes of bytes it refuses; created locally, never sent. */
    record Rejected(String why) {
    }

    /** {@link dev.spindle.cluster.Message.Compute} with its function as bytes. */
    record Compute(String key, long attempt, byte[] function, List<String> dependencies,
                   Map<String, List<Integer>> holders, int priority) implements Serializable {
    }

    /** {@link dev.spindle.cluster.Message.TaskFinished} with its value as bytes. */
    record Finished(int worker, String key, long attempt, byte[] value, long bytes, long nanos)
            implements Serializable {
    }

    /** {@link dev.spindle.cluster.Message.TaskErred} with the error as text. */
    record Erred(int worker, String key, long attempt, String errorClass, String message,
                 StackTraceElement[] trace, long nanos) implements Serializable {
    }

    /** A worker asks a holder for a value. */
    record FetchRequest(String key, int holder, int requester) implements Serializable {
    }

    /** The holder's answer: the value's bytes, or {@code null} if it holds none. */
    record FetchReply(String key, int holder, byte[] value) implements Serializable {
    }

    /** The coordinator asks whether a worker follows it. */
    record Probe(int worker) implements Serializable {
    }

    /**
     * A worker's answer to its own coordinator's probe, with how many other workers it knows: a
     * worker refuses fetches from a member it does not yet know as a worker, so the coordinator
     * dispatches only once every worker knows every other.
     */
    record ProbeReply(int worker, int peersKnown) implements Serializable {
    }
}
