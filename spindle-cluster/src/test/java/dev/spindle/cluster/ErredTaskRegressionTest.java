/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What becomes of a failed task's record, found in the session-26 review of the scheduler: each
 * test failed on the code before its fix
 * (docs/measurements/2026-11-29-s26/erred-task-before-after.txt). Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ErredTaskRegressionTest {


    /**
     * With forgetReleased, a task that failed kept its record (and its dependencies' records)
     * after its future was released, for the life of the cluster, and its key could never be
     * submitted again ("already submitted").
     */
    @Test
    void aFailedTaskWhoseFutureIsReleasedIsForgottenAndItsKeyMayBeSubmittedAgain() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).forgetReleased(true).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("input", args -> 1).build()));
            reply(s, new Message.TaskFinished(t.workerOfLastCompute("input"), "input", t.lastCompute("input").attempt(), 1, 4, 1000));
            s.submit(List.of(TaskSpec.builder("bad", args -> 1).dependsOn("input").build()));
            reply(s, new Message.TaskErred(t.workerOfLastCompute("bad"), "bad", t.lastCompute("bad").attempt(),
                    new IllegalStateException("boom"), 1000));
            s.releaseFuture("bad");
            s.releaseFuture("input");
            assertThat(s.taskRecords()).as("records left once both futures are released").isZero();
            s.submit(List.of(TaskSpec.builder("bad", args -> 2).build()));   // the key is free again
            assertThat(s.taskRecords()).isEqualTo(1);
        } finally {
            s.close();
        }
    }

    /**
     * A dependency lost with its worker and computed again for a new dependent failed; its
     * dependents that had succeeded and were released were marked failed too, and counted in
     * tasksErred.
     */
    @Test
    void aRecomputationThatFailsDoesNotTurnReleasedResultsIntoFailures() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).build()));
            int aWorker = t.workerOfLastCompute("a");
            reply(s, new Message.TaskFinished(aWorker, "a", t.lastCompute("a").attempt(), 1, 4, 1000));
            s.submit(List.of(TaskSpec.builder("b", args -> 2).dependsOn("a").build()));
            reply(s, new Message.TaskFinished(t.workerOfLastCompute("b"), "b", t.lastCompute("b").attempt(), 2, 4, 1000));
            s.releaseFuture("b");
            s.stealEvents();                                          // a barrier: b is released
            reply(s, new Message.WorkerLost(aWorker));                // a is lost with its worker
            s.submit(List.of(TaskSpec.builder("c", args -> 3).dependsOn("a").build()));   // c needs a again
            Message.Compute again = t.lastCompute("a");
            assertThat(t.workerOfLastCompute("a")).as("a computed again elsewhere").isNotEqualTo(aWorker);
            reply(s, new Message.TaskErred(t.workerOfLastCompute("a"), "a", again.attempt(), new IllegalStateException("boom"),
                    1000));
            assertThat(s.stats().tasksErred()).as("failed tasks (a and c; b succeeded and was released)").isEqualTo(2);
        } finally {
            s.close();
        }
    }

    /**
     * A task's failures were counted over its whole life: a result that needed its one retry,
     * then was lost with its worker and computed again, had no retry left for the new
     * computation, and its first error there failed it for good.
     */
    @Test
    void aRecomputationGetsItsOwnRetries() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).retries(1).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).build()));
            reply(s, new Message.TaskErred(t.workerOfLastCompute("a"), "a", t.lastCompute("a").attempt(), new IllegalStateException("flaky"),
                    1000));                                           // its one retry
            int aWorker = t.workerOfLastCompute("a");
            reply(s, new Message.TaskFinished(aWorker, "a", t.lastCompute("a").attempt(), 1, 4, 1000));
            reply(s, new Message.WorkerLost(aWorker));
            s.submit(List.of(TaskSpec.builder("c", args -> 3).dependsOn("a").build()));   // a is needed again
            reply(s, new Message.TaskErred(t.workerOfLastCompute("a"), "a", t.lastCompute("a").attempt(), new IllegalStateException("flaky"),
                    1000));
            assertThat(s.stats().tasksErred()).as("failed tasks after the recomputation's first error").isZero();
        } finally {
            s.close();
        }
    }
}
