/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import dev.spindle.cluster.LogText;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Sends signed frames to verified members through the {@value HazelcastConfigs#MESSAGES}
 * executor, a batch of messages to one member per frame (see
 * {@link dev.spindle.cluster.OutboundBatches}). Hazelcast delivers an executor task at most once over the member connection; a task
 * to a member that is gone is dropped here, and the loss is handled by membership, never by
 * retrying; the messages sent again are a retired worker's {@code Retired}
 * ({@link CoordinatorTransport#retired}) and a cut-off worker's {@link Wire.CutOff}, whose loss
 * membership would never notice. A task that
 * Hazelcast refuses for a member that stays ({@link #send} false) is not retried either: the
 * coordinator handles that worker as lost ({@link CoordinatorTransport#sendFrame}).
 *
 * <p>Hazelcast fails some invocations only after it accepted them: the connection to the member
 * is reset, the member cannot read the task or its executor refuses it, the frame's handling
 * throws there. Its future then fails, and {@code executeOnMember} drops that future: such a frame
 * was lost with nobody told, while the member stayed. So each frame goes with
 * {@code submitToMember} and a callback, and an invocation that fails for a member that is still
 * there is handed to the sender's {@code lost} (the same handling as a refusal); one that fails
 * because the member left or this member stops ({@link #membershipTells}) is left to membership.
 * It costs no message more: Hazelcast sends a response to every executor invocation, and
 * {@code executeOnMember} is itself a {@code submitToMember} whose future is dropped; what is added
 * is a callback per frame, run on Hazelcast's async executor (a reused thread, see
 * {@link HazelcastConfigs#reuseCallbackThreads}), which does nothing when the frame was delivered.
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
     * could not be sent. If Hazelcast fails the invocation after accepting it (true returned) while
     * {@code member} stays in the cluster, {@code lost} is run with the failure, on a callback
     * thread (see the class comment); it must not block.
     *
     * @throws IllegalArgumentException if the frame cannot be sealed or is over the frame limit,
     *         which the receiver would refuse on arrival (as oversized, silently for the sender): it
     *         is sealed here, on the caller's thread, so that the caller can fail what it carries
     */
    boolean send(Member member, int to, long toIncarnation, List<Object> bodies, Consumer<Throwable> lost) {
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
            hz.getExecutorService(HazelcastConfigs.MESSAGES).submitToMember(new Deliver(sealed), member,
                    new ExecutionCallback<Object>() {
                        @Override
                        public void onResponse(Object response) {
                            // delivered and handled
                        }

                        @Override
                        public void onFailure(Throwable t) {
                            if (membershipTells(t)) {
                                LOG.log(Level.DEBUG, "frame to {0} not delivered: {1}",
                                        LogText.printable(member.getAddress(), Offences.MAX_NAME), t);
                            } else {
                                lost.accept(t);
                            }
                        }
                    });
            return true;
        } catch (RuntimeException e) {
            // the member left or this instance is shutting down (membership reports the loss), or
            // Hazelcast refused the invocation for another reason: the caller handles it
            LOG.log(Level.DEBUG, "could not send to {0}: {1}",
                    LogText.printable(member.getAddress(), Offences.MAX_NAME), e);
            return false;
        }
    }

    /**
     * Whether an invocation failed because its member left the cluster or this member is
     * stopping: membership reports that loss (the coordinator's {@link Roster}, the worker's
     * coordinator-lost leaving), so the sender need not.
     */
    static boolean membershipTells(Throwable t) {
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return cause instanceof MemberLeftException || cause instanceof TargetNotMemberException
                || cause instanceof HazelcastInstanceNotActiveException;
    }
}
