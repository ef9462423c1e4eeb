/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker fetching a copy of a result (for a task of its own) whose recomputation, on that same
 * worker, fails: the scheduler tells it to drop the key, which abandons the fetch and drops a copy
 * the fetch made. A fetch that ended just before the worker took the release is reported after the
 * failure; it was still counted, as the worker was still recorded as fetching the key, so the
 * scheduler counted a copy the worker no longer had (its keys and memory in the stats, and a
 * holder named to every worker that fetches the result). Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FetchReportedAfterItsReleaseIsNotCountedTest {

    @Test
    void aCopyReportedAfterTheReleaseOfAFailedRunIsNotCounted() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            // worker 1 fetches d for t; worker 2 runs f
            s.submit(List.of(
                    TaskSpec.builder("t", args -> 2).dependsOn("d").restrictions(Restrictions.strict(Set.of(1))).build(),
                    TaskSpec.builder("f", args -> 3).restrictions(Restrictions.strict(Set.of(2))).build()));
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);

            // d's only holder is lost; u needs it, so d is computed again, on worker 1
            reply(s, new Message.WorkerLost(0));
            s.submit(List.of(TaskSpec.builder("u", args -> 4).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(2))).build()));
            assertThat(wire.workerOfLastCompute("d")).isEqualTo(1);
            Message.Compute again = wire.lastCompute("d");
            reply(s, new Message.TaskFinished(2, "f", wire.lastCompute("f").attempt(), 3, 8, 1000));

            // the run fails: worker 1 is told to drop d, and d is retried on worker 2, now idle
            reply(s, new Message.TaskErred(1, "d", again.attempt(), new IllegalStateException("boom"), 1000));
            assertThat(wire.workerOfLastCompute("d")).isEqualTo(2);
            // worker 1's fetch ended just before it took the release, which dropped the copy
            reply(s, new Message.DataAdded(1, "d", 8));
            reply(s, new Message.TaskFinished(2, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));

            ClusterStats.WorkerStats one = s.stats().workers().get(1);
            assertThat(one.keysHeld()).as("the keys counted on worker 1, which holds none").isZero();
            assertThat(one.memoryBytes()).as("the bytes counted on worker 1").isZero();
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }
}
