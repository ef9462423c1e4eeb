/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.testkit.FieldLayout;
import org.junit.jupiter.api.Test;

/**
 * The mailbox's two ends live in different cache lines: senders exchange {@code tail} on every
 * message and the consumer writes {@code head} on every message. The cell's field groups are
 * separated by padding classes, but the JVM's field layout fills gaps in a superclass's fields
 * with a subclass's: an int added to the read-mostly group in session 77 left a 4-byte gap after
 * {@code tail}, {@code head} moved into it (offsets 136 and 140), and tell-only, many senders to
 * one actor, ran at about 0.74 of the build before. Read here from the JVM that runs the test
 * ({@link FieldLayout}).
 */
class ActorCellLayoutTest {

    @Test
    void theConsumersHeadIsACacheLineAwayFromTheSendersTail() {
        FieldLayout.of(ActorCell.class)
                .group("senders", "tail")
                .group("holder", "head", "processed")
                .assertGroupsApart();
    }
}
