/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What travels inside a signed frame, in {@link FrameCodec}'s binary form: the shared message
 * bodies of {@link dev.spindle.cluster.MessageCodec} (user objects nested in them as separately
 * serialised bytes, so that a function or value the allow-list refuses fails only its own task,
 * with the key still known, instead of the whole frame) and this transport's own
 * {@link Members} and {@link CutOff}.
 */
final class Wire {

    private Wire() {
    }

    /**
     * What a member signs: a batch of bodies (at least one, at most
     * {@link dev.spindle.cluster.MessageCodec#MAX_BATCH}) from {@code sender} to {@code to}
     * ({@link #COORDINATOR} or a worker id) in the coordinator's {@code session}, from the
     * sender's {@code incarnation} (a worker process's random non-zero number, proved in its
     * handshake; {@link #COORDINATOR_INCARNATION} for the coordinator, whose incarnation is the
     * session) to the addressee's {@code toIncarnation} (so that a frame captured on its way to
     * a process that was lost or retired means nothing to the process that takes its id next),
     * with the sender's next sequence number. The receiver accepts it only in its own session,
     * addressed to its own incarnation, from a proven sender's current incarnation, once (see
     * {@link Session}), and then acts on every body in order.
     */
    record Frame(UUID session, int sender, long incarnation, int to, long toIncarnation, long seq,
                 List<Object> bodies) {
        Frame {
            bodies = List.copyOf(bodies);
        }

        /** A frame to the coordinator, or to a member whose incarnation the test does not care about. */
        Frame(UUID session, int sender, long incarnation, int to, long seq, List<Object> bodies) {
            this(session, sender, incarnation, to, COORDINATOR_INCARNATION, seq, bodies);
        }

        /** A frame of one body to the coordinator (see above). */
        Frame(UUID session, int sender, long incarnation, int to, long seq, Object body) {
            this(session, sender, incarnation, to, seq, List.of(body));
        }
    }

    /** The coordinator's frames' incarnation: a coordinator has one per session, named by the session id. */
    static final long COORDINATOR_INCARNATION = dev.spindle.cluster.Incarnations.NONE;

    static final int COORDINATOR = -1;

    /**
     * The coordinator tells the workers which member proved each worker id (by member UUID), and
     * under which incarnation.
     */
    record Members(Map<Integer, UUID> workers, Map<Integer, Long> incarnations) {
    }

    /**
     * The coordinator tells worker {@code worker}'s process (the frame's addressee incarnation)
     * that it cut it off while its member stayed in the cluster: the process leaves, since
     * nothing it sends is accepted any more and nothing more is sent to it
     * ({@link CoordinatorTransport#workerLost}).
     */
    record CutOff(int worker) {
    }
}
