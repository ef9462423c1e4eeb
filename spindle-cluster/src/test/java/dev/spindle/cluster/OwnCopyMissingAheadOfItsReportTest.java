/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker fetches a value for a task and reports the copy ({@link Message.DataAdded}); then it
 * cannot read the copy back as the task starts, and reports it missing, naming itself
 * ({@link Message.DataMissing}). On a transport that reorders frames the second report may arrive
 * first: the worker was not yet counted as a holder, so nothing was uncounted nor released, and
 * the copy's report, arriving after, was counted as the copy asked for (the task, placed there
 * again, asked for the value anew), a copy the worker no longer had. The worker is now told to
 * drop the key and taken off the fetchers, as a holder is, so that the late report, older than
 * that release, is not counted; the copy fetched for the task's new attempt is. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OwnCopyMissingAheadOfItsReportTest {

    @Test
    void aCopyReportedMissingByItsWorkerBeforeItsReportArrivedIsNotCounted() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            s.submit(List.of(TaskSpec.builder("t", args -> 2).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            Message.Compute t = wire.lastCompute("t");
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);

            // worker 1 fetched d and reported it, then could not read it back under t: the second
            // report overtakes the first
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 1));
            Message.Compute again = wire.lastCompute("t");
            assertThat(again.attempt()).as("t placed again").isNotEqualTo(t.attempt());
            reply(s, new Message.DataAdded(1, "d", 8, 0));
            assertThat(holders(s, "d")).as("d's holders once the copy reported missing is reported").containsExactly(0);
            assertThat(s.stats().workers().get(1).keysHeld()).as("the keys counted on worker 1, which holds none")
                    .isZero();
            s.checkCountsForTests();

            // the copy fetched for t's new attempt counts
            reply(s, new Message.DataAdded(1, "d", 8, again.releases()));
            assertThat(holders(s, "d")).containsExactly(0, 1);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    private static Set<Integer> holders(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> new TreeSet<>(tasks.get(key).holders));
    }
}
