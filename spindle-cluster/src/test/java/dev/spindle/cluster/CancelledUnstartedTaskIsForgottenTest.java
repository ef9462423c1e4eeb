/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task whose future the client cancelled ({@link ClusterFuture#cancel}) before the task was sent
 * to any worker (waiting for its inputs, or for a worker to join) is forgotten, as Dask forgets a
 * released one: it never runs, and its inputs that nothing else needs are released on their
 * workers at once. Before, a cancel did nothing (it returned false): the task kept its place, ran
 * once it could, and held its inputs until then. A task only released still runs, as
 * {@link ClusterFuture} promises. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelledUnstartedTaskIsForgottenTest {

    /** What {@link ClusterFuture#cancel} does with the scheduler's future and the scheduler. */
    private static void cancel(GraphScheduler s, CompletableFuture<Object> f, String key) {
        assertThat(f.completeExceptionally(new CancellationException())).isTrue();
        s.releaseFuture(key, true);
    }

    @Test
    void aCancelledTaskWaitingForAWorkerDoesNotRunWhenOneJoinsAndItsInputIsReleased() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).noWorkerTimeout(Duration.ofMinutes(10))
                .forgetReleased(true).build(), wire);
        try {
            reply(s, new Message.WorkerLost(1));
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("in", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("t", args -> 2).dependsOn("in").restrictions(Restrictions.strict(Set.of(1)))
                            .build()));
            s.releaseFuture("in");            // only 't' needs it now
            reply(s, new Message.TaskFinished(0, "in", wire.lastCompute("in").attempt(), 1, 8, 1000));
            assertThat(s.stats().tasksAwaitingWorker()).as("'t' waits for worker 1").isEqualTo(1);

            cancel(s, fs.get(1), "t");
            s.taskRecords();                  // a barrier
            assertThat(wire.releasedOn(0, "in")).as("'in', needed by nobody now, released on its holder").isTrue();
            assertThat(s.stats().tasksAwaitingWorker()).as("'t' waits no more").isZero();
            assertThat(s.stats().tasksCancelled()).as("'t', forgotten").isEqualTo(1);

            s.join(1, 1);
            s.taskRecords();
            assertThat(wire.lastCompute("t")).as("'t' is not run by the worker that joined").isNull();
            assertThat(s.retainedForTests()).containsEntry("tasks", 0).containsEntry("holds", 0)
                    .containsEntry("processing", 0);
        } finally {
            s.close();
        }
    }

    @Test
    void aCancelledTaskWaitingForItsInputsIsForgottenAndItsOtherInputsReleased() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build(),
                    TaskSpec.builder("b", args -> 2).restrictions(Restrictions.loose(Set.of(1))).build(),
                    TaskSpec.builder("t", args -> 3).dependsOn("a", "b").build()));
            s.releaseFuture("a");
            s.releaseFuture("b");
            reply(s, new Message.TaskFinished(0, "a", wire.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(wire.releasedOn(0, "a")).as("'t' still needs 'a'").isFalse();

            cancel(s, fs.get(2), "t");        // while it waits for 'b', which runs on worker 1
            s.taskRecords();
            assertThat(wire.releasedOn(0, "a")).as("'a', needed by nobody now, released on its holder").isTrue();

            // 'b' was sent to its worker: it finishes there, and is released then
            reply(s, new Message.TaskFinished(1, "b", wire.lastCompute("b").attempt(), 2, 8, 1000));
            assertThat(wire.lastCompute("t")).as("'t' does not run once its inputs are in memory").isNull();
            assertThat(wire.releasedOn(1, "b")).as("'b' released on its holder as it finishes").isTrue();
            assertThat(s.retainedForTests()).containsEntry("holds", 0).containsEntry("processing", 0);
        } finally {
            s.close();
        }
    }

    /** Sent to a worker when cancelled, it runs there; lost with that worker, it is not placed again. */
    @Test
    void aCancelledTaskBackFromALostWorkerIsNotPlacedAgain() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("in", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("t", args -> 2).dependsOn("in").restrictions(Restrictions.loose(Set.of(1)))
                            .build()));
            s.releaseFuture("in");
            reply(s, new Message.TaskFinished(0, "in", wire.lastCompute("in").attempt(), 1, 8, 1000));
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);
            cancel(s, fs.get(1), "t");        // sent already: it runs on
            s.taskRecords();
            assertThat(wire.releasedOn(0, "in")).as("'t', processing, still needs 'in'").isFalse();

            reply(s, new Message.WorkerLost(1));
            assertThat(wire.workerOfLastCompute("t")).as("'t' is not placed on worker 0").isEqualTo(1);
            assertThat(wire.releasedOn(0, "in")).as("'in', needed by nobody now, released on its holder").isTrue();
            assertThat(s.retainedForTests()).containsEntry("tasks", 0).containsEntry("holds", 0)
                    .containsEntry("processing", 0);
        } finally {
            s.close();
        }
    }

    /**
     * Released, not cancelled (a future dropped and collected, say): the task still runs, though
     * nothing needs its value, as {@link ClusterFuture} promises (a task submitted for what it
     * does); a copy of its future made before gets the value.
     */
    @Test
    void aReleasedTaskNotYetStartedStillRuns() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).build(),
                    TaskSpec.builder("t", args -> 2).dependsOn("a").build()));
            CompletableFuture<Object> copy = fs.get(1).copy();
            s.releaseFuture("a");
            s.releaseFuture("t");             // while it waits for 'a'
            reply(s, new Message.TaskFinished(wire.workerOfLastCompute("a"), "a", wire.lastCompute("a").attempt(), 1,
                    8, 1000));
            assertThat(wire.lastCompute("t")).as("'t' runs though released").isNotNull();
            reply(s, new Message.TaskFinished(wire.workerOfLastCompute("t"), "t", wire.lastCompute("t").attempt(), 2,
                    8, 1000));
            assertThat(copy.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(s.stats().tasksCancelled()).as("a release is not a cancel").isZero();
        } finally {
            s.close();
        }
    }
}
