/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task's fetch of an input from a holder whose worker then went (retired, or lost) and whose id
 * rejoined before the task's report of the failed fetch arrived. The report names the id; the
 * scheduler took it for a failure to fetch from the live worker now under that id, counted it
 * against the task's retries as a fetch that a live holder never serves (FetchFailingFromALiveHolderIsBoundedTest),
 * and with no retries left failed the task ("the workers may not reach each other"), although the
 * copy it named was the gone incarnation's and the input was held elsewhere (copied off the retiring
 * worker) or could be computed again (lost with it). Without the rejoin the same report places the
 * task again. Played by hand: worker 0 holds p, d runs on worker 2 and fetches p from worker 0.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FetchFromAGoneIncarnationIsNotALiveHoldersFailureTest {

    @Test
    void aFetchFromARetiredHolderWhoseIdRejoinedPlacesTheTaskAgain() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).retries(0).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = submit(s);
            reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
            Message.Compute d = wire.lastCompute("d");
            assertThat(wire.workerOfLastCompute("d")).isEqualTo(2);
            assertThat(d.holders()).containsEntry("p", List.of(0));

            CompletableFuture<Void> retired = s.retire(0);   // p, only there, is copied to worker 1
            reply(s, new Message.DataAdded(1, "p", 8));
            retired.get(10, TimeUnit.SECONDS);
            s.join(0, 1);                                     // a fresh worker under id 0

            // worker 2's fetch from the retired worker 0 failed; its report comes after the rejoin
            reply(s, new Message.DataMissing(2, "d", d.attempt(), "p", 0));

            assertThat(state(s, "d")).as("d, whose input is held by worker 1").isEqualTo(TaskState.State.PROCESSING);
            Message.Compute again = wire.lastCompute("d");
            assertThat(again.attempt()).isGreaterThan(d.attempt());
            assertThat(again.holders()).containsEntry("p", List.of(1));
            reply(s, new Message.DataAdded(2, "p", 8));
            reply(s, new Message.TaskFinished(2, "d", again.attempt(), 2, 8, 1000));
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    @Test
    void aFetchFromALostHolderWhoseIdRejoinedComputesTheInputAgain() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).retries(0).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = submit(s);
            reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
            Message.Compute d = wire.lastCompute("d");
            assertThat(wire.workerOfLastCompute("d")).isEqualTo(2);

            reply(s, new Message.WorkerLost(0));             // p's only copy goes with it
            s.join(0, 1);

            reply(s, new Message.DataMissing(2, "d", d.attempt(), "p", 0));

            assertThat(state(s, "d")).as("d, whose input is computed again").isEqualTo(TaskState.State.WAITING);
            Message.Compute p = wire.lastCompute("p");
            assertThat(wire.workerOfLastCompute("p")).isEqualTo(0);
            reply(s, new Message.TaskFinished(0, "p", p.attempt(), 1, 8, 1000));
            Message.Compute again = wire.lastCompute("d");
            assertThat(again.attempt()).isGreaterThan(d.attempt());
            reply(s, new Message.DataAdded(2, "p", 8));
            reply(s, new Message.TaskFinished(2, "d", again.attempt(), 2, 8, 1000));
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    /** The rule the others build on stays: a live holder that never serves still counts. */
    @Test
    void aFetchFromTheSameLiveIncarnationStillCounts() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).retries(0).build(), wire);
        try {
            submit(s);
            reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
            reply(s, new Message.DataMissing(2, "d", wire.lastCompute("d").attempt(), "p", 0));
            assertThat(state(s, "d")).isEqualTo(TaskState.State.ERRED);
        } finally {
            s.close();
        }
    }

    /** p on worker 0 (loose, so that it may go elsewhere), d needing it on worker 2 only. */
    private static List<CompletableFuture<Object>> submit(GraphScheduler s) {
        return s.submit(List.of(
                TaskSpec.builder("p", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build(),
                TaskSpec.builder("d", args -> 2).dependsOn("p").restrictions(Restrictions.strict(Set.of(2)))
                        .build()));
    }

    private static TaskState.State state(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> tasks.get(key).state);
    }
}
