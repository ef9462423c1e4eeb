/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.testkit.FieldLayout;
import org.junit.jupiter.api.Test;

/**
 * The fields an async worker writes on every poll ({@link AsyncWorkerHotFields}) sit on cache
 * lines of their own, in the JVM that runs the test: away from the fields peers read (the
 * worker's own: its queues, its thread) and from the objects allocated just before and after it,
 * often another worker's queues. The padding classes only fix the order; the JVM may fill an
 * alignment hole with another field (see {@link FieldLayout}).
 */
class AsyncWorkerLayoutTest {

    @Test
    void theFieldsWrittenOnEveryPollAreACacheLineAwayFromTheRest() {
        FieldLayout.of(AsyncWorker.class)
                .groupDeclaredIn("AsyncWorkerHotFields")
                .groupDeclaredIn("AsyncWorker")
                .awayFromNeighbours("AsyncWorkerHotFields")
                .assertGroupsApart();
    }
}
