/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.util.function.LongConsumer;

/**
 * The numbering of one link's frames ({@link Wire.Frame#seq()}) at one of its ends: the number of
 * the last frame this end handed to Artery for the peer process, and of the last one it took from
 * it. Sending is numbered under the link's lock, so that the numbers reach Artery's queue in
 * order whichever threads send (the scheduler's, a pool thread, the marker's); receiving is the
 * endpoint actor's alone.
 */
final class Link {

    /** The peer process's incarnation: a new process at the other end is a new link. */
    final long incarnation;
    private long sent;                        // guarded by this
    private long received;                    // the endpoint actor's

    Link(long incarnation) {
        this.incarnation = incarnation;
    }

    /**
     * Hands {@code send} the next number and takes it if {@code send} returns: one that throws (a
     * frame over the limit) sent nothing, and leaves no gap.
     */
    synchronized void send(LongConsumer send) {
        send.accept(sent + 1);
        sent++;
    }

    /**
     * Sends a marker ({@link Wire.Mark}) numbered as the next frame, if the link has carried a
     * frame: one that never did has nothing to lose.
     */
    synchronized void mark(LongConsumer send) {
        if (sent > 0) {
            send(send);
        }
    }

    /**
     * Takes frame {@code seq} of the peer: whether it is {@link Wire#UNNUMBERED} or exactly the
     * next one. Anything else means frames between were lost (a TCP connection restarted under
     * Artery), and the caller handles the peer as lost.
     */
    boolean received(long seq) {
        if (seq == Wire.UNNUMBERED) {
            return true;
        }
        if (seq != received + 1) {
            return false;
        }
        received = seq;
        return true;
    }

    /** The number the next frame of the peer must carry; for logs. */
    long expected() {
        return received + 1;
    }
}
