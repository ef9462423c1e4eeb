/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import dev.spindle.testkit.FieldLayout;
import org.junit.jupiter.api.Test;

/**
 * The state word (and {@code blocked}, read beside it) that every submitter reads sits on a
 * cache line of its own, in the JVM that runs the test: away from the fields parking and waking
 * workers write under the lock (the stack's size, the wake count) and from neighbouring objects.
 * The padding classes only fix the order; the JVM may fill an alignment hole next to the word
 * with another field (see {@link FieldLayout}).
 */
class IdleCoordinatorLayoutTest {

    @Test
    void theStateWordIsACacheLineAwayFromTheCoordinatorsOtherFields() {
        FieldLayout.of(IdleCoordinator.class)
                .groupDeclaredIn("IdleCoordinatorStateField")
                .groupDeclaredIn("IdleCoordinator")
                .awayFromNeighbours("IdleCoordinatorStateField")
                .assertGroupsApart();
    }
}
