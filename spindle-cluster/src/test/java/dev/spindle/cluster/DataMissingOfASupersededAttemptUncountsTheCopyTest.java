/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link Message.DataMissing} that names an attempt no longer current still tells a fact about
 * the input's copy: here the worker could not read its own copy (a spill file damaged), so its
 * store dropped it. The task had failed meanwhile (another of its inputs could not be computed
 * again), and the scheduler ignored the whole report, so it went on counting the copy on that
 * worker: its keys and memory in the stats, a holder named to every task that fetches the input,
 * a task placed there for the locality of a value it does not have. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DataMissingOfASupersededAttemptUncountsTheCopyTest {

    @Test
    void aMissingCopyReportedForAFailedTaskIsNoLongerCounted() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(
                    TaskSpec.builder("e", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build(),
                    TaskSpec.builder("f", args -> 2).restrictions(Restrictions.loose(Set.of(2))).build()));
            reply(s, new Message.TaskFinished(0, "e", wire.lastCompute("e").attempt(), 1, 8, 1000));
            reply(s, new Message.TaskFinished(2, "f", wire.lastCompute("f").attempt(), 2, 8, 1000));

            // t runs on worker 1, which fetched a copy of e
            s.submit(List.of(TaskSpec.builder("t", args -> 3).dependsOn("e", "f")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);
            long attempt = wire.lastCompute("t").attempt();
            reply(s, new Message.DataAdded(1, "e", 8));

            // f's only holder is lost; u needs f, whose recomputation fails for good: t fails with it
            reply(s, new Message.WorkerLost(2));
            s.submit(List.of(TaskSpec.builder("u", args -> 4).dependsOn("f")
                    .restrictions(Restrictions.strict(Set.of(0))).build()));
            for (int failure = 0; failure < 2; failure++) {
                reply(s, new Message.TaskErred(wire.workerOfLastCompute("f"), "f", wire.lastCompute("f").attempt(),
                        new IllegalStateException("boom"), 1000));
            }
            TaskState.State state = s.inspectTasks((tasks, ws) -> tasks.get("t").state);
            assertThat(state).as("t, failed with its input").isEqualTo(TaskState.State.ERRED);

            // worker 1 ran t before it took the release of t, and could not read its copy of e
            reply(s, new Message.DataMissing(1, "t", attempt, "e", 1));

            List<Integer> holders = s.inspectTasks((tasks, ws) -> new ArrayList<>(tasks.get("e").holders));
            assertThat(holders).as("the holders of e, whose copy on worker 1 is gone").containsExactly(0);
            ClusterStats.WorkerStats one = s.stats().workers().get(1);
            assertThat(one.keysHeld()).as("the keys counted on worker 1, which holds none").isZero();
            assertThat(one.memoryBytes()).as("the bytes counted on worker 1").isZero();
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }
}
