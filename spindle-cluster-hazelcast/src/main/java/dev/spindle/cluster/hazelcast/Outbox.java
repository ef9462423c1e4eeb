/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Sends signed frames to verified members through the {@value HazelcastConfigs#MESSAGES}
 * executor, a batch of messages to one member per frame (see
 * {@link dev.spindle.cluster.OutboundBatches}). Hazelcast delivers an executor task at most once over the member connection; a task
 * to a member that is gone is dropped here, and the loss is handled by membership, never by
 * retrying; the one message sent again is a retired worker's {@code Retired}
 * ({@link CoordinatorTransport#retired}), whose loss membership would never notice. A task that
 * Hazelcast refuses for a member that stays ({@link #send} false) is not retried either: the
 * coordinator handles that worker as lost ({@link CoordinatorTransport#sendFrame}).
 */
final class Outbox {

    private static final System.Logger LOG = System.getLogger(Outbox.class.getName());

    private final FrameCodec codec;
    private final Session session;
    /** The receiver's frame limit ({@link HazelcastClusterSettings#maxFrameBytes}, the same on every member). */
    private final int maxFrameBytes;
    private volatile HazelcastInstance instance;

    Outbox(FrameCodec codec, Session session, int maxFrameBytes) {
        this.codec = codec;
        this.session = session;
        this.maxFrameBytes = maxFrameBytes;
    }

    void attach(HazelcastInstance instance) {
        this.instance = instance;
    }

    HazelcastInstance instance() {
        return instance;
    }

    /** This member's cluster view, or {@code null} before {@link #attach}. */
    com.hazelcast.cluster.Cluster cluster() {
        HazelcastInstance hz = instance;
        return hz == null ? null : hz.getCluster();
    }

    /**
     * Seals {@code bodies} for {@code to}'s process {@code toIncarnation} as one frame, in this
     * member's session with its next sequence number, and sends it to {@code member}; false if it
     * could not be sent.
     *
     * @throws IllegalArgumentException if the frame cannot be sealed or is over the frame limit,
     *         which the receiver would refuse on arrival (as oversized, silently for the sender): it
     *         is sealed here, on the caller's thread, so that the caller can fail what it carries
     */
    boolean send(Member member, int to, long toIncarnation, List<Object> bodies) {
        HazelcastInstance hz = instance;
        if (member == null || hz == null) {
            return false;
        }
        byte[] sealed = codec.seal(session.frame(to, toIncarnation, bodies));
        if (sealed.length > maxFrameBytes) {
            throw new IllegalArgumentException("is " + sealed.length + " bytes sealed, over the frame limit of "
                    + maxFrameBytes);
        }
        try {
            hz.getExecutorService(HazelcastConfigs.MESSAGES).executeOnMember(new Deliver(sealed), member);
            return true;
        } catch (RuntimeException e) {
            // the member left or this instance is shutting down (membership reports the loss), or
            // Hazelcast refused the invocation for another reason: the caller handles it
            LOG.log(Level.DEBUG, "could not send to {0}: {1}", member.getAddress(), e);
            return false;
        }
    }
}
