/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import dev.spindle.testkit.FieldLayout;
import org.junit.jupiter.api.Test;

/**
 * The queues' padding does what their layout comments say, in the JVM that runs the test: each
 * end of a queue, written by its own threads, sits on cache lines of its own, away from the
 * other end and from neighbouring objects. The padding classes only fix the order of the groups;
 * the JVM may still fill an alignment hole of one group with a field of another (see
 * {@link FieldLayout}), so a field added to a group is checked here, not in a benchmark.
 */
class QueueLayoutTest {

    /** Thieves CAS {@code top}; the owner writes {@code bottom} and its own bookkeeping on every push and pop. */
    @Test
    void theDequesTopIsACacheLineAwayFromTheOwnersFields() {
        FieldLayout.of(WorkStealingDeque.class)
                .groupDeclaredIn("DequeTop")
                .groupDeclaredIn("DequeBottom")
                .awayFromNeighbours("DequeTop", "DequeBottom")
                .assertGroupsApart();
    }

    /** Consumers move {@code head} on; producers move {@code tail} on. */
    @Test
    void theInjectorsHeadIsACacheLineAwayFromItsTail() {
        FieldLayout.of(Injector.class)
                .groupDeclaredIn("InjectorHead")
                .groupDeclaredIn("InjectorTail")
                .awayFromNeighbours("InjectorHead", "InjectorTail")
                .assertGroupsApart();
    }

    /**
     * Producers claim slots on {@code enq}; consumers on {@code deq}, and link the next segment.
     * No neighbours: the segment pads only between its counters.
     */
    @Test
    void aSegmentsEnqueueCounterIsACacheLineAwayFromItsDequeueCounter() {
        FieldLayout.of(Injector.Segment.class)
                .groupDeclaredIn("SegmentEnq")
                .groupDeclaredIn("SegmentDeq")
                .assertGroupsApart();
    }

    /** Consumers CAS {@code head}; the owner stores {@code tail}. */
    @Test
    void theOwnerFifosHeadIsACacheLineAwayFromItsTail() {
        FieldLayout.of(OwnerFifo.class)
                .groupDeclaredIn("OwnerFifoHead")
                .groupDeclaredIn("OwnerFifoTail")
                .awayFromNeighbours("OwnerFifoHead", "OwnerFifoTail")
                .assertGroupsApart();
    }
}
