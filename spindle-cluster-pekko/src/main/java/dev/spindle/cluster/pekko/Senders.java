/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import org.apache.pekko.actor.ActorRef;

/** Names the sender of a frame for logs and refusal counts. */
final class Senders {

    private Senders() {
    }

    /** The sender's member address, or "an unnamed sender" when the frame came without one. */
    static String describe(ActorRef sender) {
        if (sender == null || sender == ActorRef.noSender() || sender.path().address().host().isEmpty()) {
            return "an unnamed sender";
        }
        return "member " + sender.path().address();
    }
}
