/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Incarnations;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What travels between members, always as a {@link Frame} in {@link WireCodec}'s binary form:
 * the shared message bodies of {@link dev.spindle.cluster.MessageCodec} (user objects nested in
 * them as separately serialised bytes, so that a function or value the allow-list refuses fails
 * only its own task, with the key still known, instead of the whole frame; task errors as text,
 * never as the worker's exception object, whose class the coordinator might not allow) and this
 * transport's own {@link Probe} and {@link ProbeReply}. Each frame carries an authenticator that
 * proves who sent it (see {@link KeyExchange}): a MAC under the coordinator–worker pair's key, a
 * fetch request's nonce, or the nonce its reply echoes.
 */
final class Wire {

    /** {@link Frame#to()} of a frame for the coordinator. */
    static final int COORDINATOR = -1;

    /**
     * {@link Frame#seq()} of a frame outside the numbered stream of its link: a request sent with
     * an ask (a probe, a fetch) or the reply to one, whose asker's timeout covers its loss.
     */
    static final long UNNUMBERED = 0;

    /**
     * How often a link that has carried frames carries a {@link Mark}: the most a lost frame
     * stays unnoticed once the link delivers again (see {@link Frame#seq()}).
     */
    static final Duration MARK_INTERVAL = Duration.ofSeconds(1);

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
     *
     * <p>{@code seq} numbers the frames of one link, the coordinator's to one worker process or a
     * worker process's to its coordinator, from 1, in the order they are handed to Artery. Artery
     * delivers at most once: when the TCP connection of a link fails and its outbound stream
     * restarts, the frames in the stream's buffers are gone, both members stay, and no event
     * tells. So the receiver takes a numbered frame only if it is exactly the next one of its
     * link, and a gap has the peer handled as lost (see the transports). Artery keeps the order
     * of the messages between two actors (lanes are chosen by recipient), so a gap is a loss,
     * never a reordering. The number is inside the part the seal vouches for. A frame that
     * nothing follows would be lost unseen, so a link that has carried frames carries a
     * {@link Mark} every {@link #MARK_INTERVAL}. {@link #UNNUMBERED} for the requests and replies
     * of asks, which are outside the stream.
     */
    record Frame(int to, long incarnation, long seq, List<Object> bodies) {
        Frame {
            bodies = List.copyOf(bodies);
        }

        /** An unnumbered frame of a batch. */
        Frame(int to, long incarnation, List<Object> bodies) {
            this(to, incarnation, UNNUMBERED, bodies);
        }

        /** An unnumbered frame of the coordinator, which has no incarnation, with one body. */
        Frame(int to, Object body) {
            this(to, Incarnations.NONE, List.of(body));
        }

        /** An unnumbered frame of one body. */
        Frame(int to, long incarnation, Object body) {
            this(to, incarnation, List.of(body));
        }

        /** The only body of a frame that must have one (a request or a reply), or {@code null}. */
        Object single() {
            return bodies.size() == 1 ? bodies.get(0) : null;
        }
    }

    /**
     * The body of a link's idle marker: nothing but its frame's number, so that the loss of the
     * frame before it is seen although no other frame follows. {@code worker} is the worker
     * process's id at either end of the link.
     */
    record Mark(int worker) {
    }

    /** A frame already encoded by its sender ({@link Outbox}); the serializer passes the bytes on. */
    record Encoded(byte[] bytes) {
    }

    /**
     * Writes a frame's authenticator ({@value FrameMac#BYTES} bytes at {@code authOffset} of the
     * encoded frame), given the part of the frame it vouches for.
     */
    @FunctionalInterface
    interface Seal {
        /** No authenticator (zeros): for the key exchange's own messages, which prove themselves. */
        Seal NONE = (frame, authOffset, signedOffset, signedLength) -> { };

        void seal(byte[] frame, int authOffset, int signedOffset, int signedLength);

        /** A fixed token as the authenticator: a fetch request's nonce, or its reply's echo of it. */
        static Seal token(byte[] token) {
            if (token.length != FrameMac.BYTES) {
                throw new IllegalArgumentException("a token of " + token.length + " bytes, not " + FrameMac.BYTES);
            }
            byte[] copy = token.clone();
            return (frame, authOffset, signedOffset, signedLength) ->
                    System.arraycopy(copy, 0, frame, authOffset, copy.length);
        }
    }

    /**
     * A frame as it arrived: decoded, with the bytes it came in (read-only), so that the receiver,
     * which knows whom the sender claims to be, can check its authenticator.
     */
    record Received(Frame frame, byte[] bytes) {

        /** Whether the authenticator is the MAC under {@code key} of the rest of the frame. */
        boolean sealedBy(PairKey key) {
            return key != null && key.verifies(bytes, WireCodec.AUTH_OFFSET, WireCodec.SIGNED_OFFSET,
                    bytes.length - WireCodec.SIGNED_OFFSET);
        }

        /** Whether the authenticator is {@code token} (compared in constant time). */
        boolean carries(byte[] token) {
            return token != null && FrameMac.equal(authenticator(), token);
        }

        /** A copy of the authenticator. */
        byte[] authenticator() {
            return Arrays.copyOfRange(bytes, WireCodec.AUTH_OFFSET, WireCodec.SIGNED_OFFSET);
        }
    }

    /** What the decoder makes of bytes it refuses; created locally, never sent. */
    record Rejected(String why) {
    }

    /**
     * The coordinator asks whether a worker follows it, and offers its token for the pair's key
     * ({@link KeyExchange}; the same token for every probe of one worker process).
     */
    record Probe(int worker, byte[] offer) {
        Probe {
            offer = offer.clone();
        }

        @Override
        public byte[] offer() {
            return offer.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Probe p && p.worker == worker && Arrays.equals(p.offer, offer);
        }

        @Override
        public int hashCode() {
            return 31 * worker + Arrays.hashCode(offer);
        }

        @Override
        public String toString() {
            return "Probe[worker=" + worker + "]";
        }
    }

    /**
     * A worker's answer to its own coordinator's probe, with the other workers it knows, each
     * worker id's process by its incarnation (a worker refuses a fetch from a member it does not
     * know as a worker's current process, so the coordinator dispatches only once every worker
     * knows every other: by identity, not by number, since a worker may still know a process the
     * coordinator has lost and not yet one that joined), its own token for the pair's key, and the
     * coordinator's token it was offered (which proves the answer comes from the process the probe
     * reached; see {@link KeyExchange}).
     */
    record ProbeReply(int worker, Map<Integer, Long> peers, byte[] token, byte[] echo) {
        ProbeReply {
            peers = Map.copyOf(peers);
            token = token.clone();
            echo = echo.clone();
        }

        @Override
        public byte[] token() {
            return token.clone();
        }

        @Override
        public byte[] echo() {
            return echo.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ProbeReply r && r.worker == worker && r.peers.equals(peers)
                    && Arrays.equals(r.token, token) && Arrays.equals(r.echo, echo);
        }

        @Override
        public int hashCode() {
            return (31 * worker + peers.hashCode()) * 31 + Arrays.hashCode(token);
        }

        @Override
        public String toString() {
            return "ProbeReply[worker=" + worker + ", peers=" + new TreeMap<>(peers).keySet() + "]";
        }
    }
}
