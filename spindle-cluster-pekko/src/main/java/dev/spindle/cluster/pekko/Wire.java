/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.Incarnations;
import java.util.List;

/**
 * What travels between members, always as a {@link Frame} in {@link WireCodec}'s binary form:
 * the shared message bodies of {@link dev.spindle.cluster.MessageCodec} (user objects nested in
 * them as separately serialised bytes, so that a function or value the allow-list refuses fails
 * only its own task, with the key still known, instead of the whole frame; task errors as text,
 * never as the worker's exception object, whose class the coordinator might not allow) and this
 * transport's own {@link Probe} and {@link ProbeReply}.
 */
final class Wire {

    /** {@link Frame#to()} of a frame for the coordinator. */
    static final int COORDINATOR = -1;

    private Wire() {
    }

    /**
     * A frame addressed to {@code to} ({@link #COORDINATOR} or a worker id), sent by a process of
     * incarnation {@code incarnation} (a worker's, see {@link Roster}; {@link Incarnations#NONE}
     * from the coordinator), carrying a batch of bodies (at least one, at most
     * {@link dev.spindle.cluster.MessageCodec#MAX_BATCH}), each one record of
     * {@link dev.spindle.cluster.WireMessage}, a {@link dev.spindle.cluster.Message} or one below.
     * A receiver acts on a worker's frame only if it comes from that worker's member and current
     * incarnation.
     */
    record Frame(int to, long incarnation, List<Object> bodies) {
        Frame {
            bodies = List.copyOf(bodies);
        }

        /** A frame of the coordinator, which has no incarnation, with one body. */
        Frame(int to, Object body) {
            this(to, Incarnations.NONE, List.of(body));
        }

        /** A frame of one body. */
        Frame(int to, long incarnation, Object body) {
            this(to, incarnation, List.of(body));
        }

        /** The only body of a frame that must have one (a request or a reply), or {@code null}. */
        Object single() {
            return bodies.size() == 1 ? bodies.get(0) : null;
        }
    }

    /** A frame already encoded by its sender ({@link Outbox}); the serializer passes the bytes on. */
    record Encoded(byte[] bytes) {
    }

    /** What the decoder makes of bytes it refuses; created locally, never sent. */
    record Rejected(String why) {
    }

    /** The coordinator asks whether a worker follows it. */
    record Probe(int worker) {
    }

    /**
     * A worker's answer to its own coordinator's probe, with how many other workers it knows: a
     * worker refuses fetches from a member it does not yet know as a worker, so the coordinator
     * dispatches only once every worker knows every other.
     */
    record ProbeReply(int worker, int peersKnown) {
    }
}
