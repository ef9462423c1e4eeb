/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.testkit.FieldLayout;
import org.junit.jupiter.api.Test;

/**
 * A worker's per-task fields ({@link WorkerHotFields}) sit on cache lines of their own, in the
 * JVM that runs the test: away from the fields submitters and peers read (its flags, its
 * queues, its thread: every other field of the worker) and from the objects allocated next to
 * it, often other workers. The padding classes only fix the order; the JVM may fill an alignment
 * hole of the padded block with another field (see {@link FieldLayout}).
 */
class WorkerLayoutTest {

    @Test
    void aWorkStealingWorkersPerTaskFieldsAreACacheLineAwayFromTheRest() {
        FieldLayout.of(Worker.class)
                .groupDeclaredIn("WorkerHotFields")
                .groupDeclaredIn("BaseWorker", "Worker")
                .awayFromNeighbours("WorkerHotFields")
                .assertGroupsApart();
    }

    @Test
    void aPoolWorkersPerTaskFieldsAreACacheLineAwayFromTheRest() {
        FieldLayout.of(PoolWorker.class)
                .groupDeclaredIn("WorkerHotFields")
                .groupDeclaredIn("BaseWorker", "PoolWorker")
                .awayFromNeighbours("WorkerHotFields")
                .assertGroupsApart();
    }
}
