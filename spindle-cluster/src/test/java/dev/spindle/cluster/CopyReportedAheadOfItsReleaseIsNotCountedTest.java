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
 * A worker's copy of a value vanishes (a spilled value it cannot read back) under a task that
 * reads it: it reports the value missing, naming itself, and the scheduler tells it to drop the
 * key and places the task there again, asking it to fetch the value. A task sent to it before
 * that release, which names it a holder, finds the value gone and fetches it; the worker reports
 * that copy ({@link Message.DataAdded}) just before it takes the release, which drops it. The
 * report arrived after the scheduler had asked the worker for the key again, and was counted as
 * the copy asked for, so that the scheduler counted a copy the worker no longer had (its keys and
 * memory in the stats, and a holder named to every worker that fetches the value). The report now
 * says how many releases the worker had handled, and one that predates a release sent before the
 * ask is not counted; the copy asked for, made after the release, is. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CopyReportedAheadOfItsReleaseIsNotCountedTest {

    @Test
    void aCopyReportedBeforeTheWorkerTookItsReleaseIsNotCounted() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            // worker 1 fetches d for t, and holds a copy
            s.submit(List.of(TaskSpec.builder("t", args -> 2).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            Message.Compute t = wire.lastCompute("t");
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);
            reply(s, new Message.DataAdded(1, "d", 8, 0));
            assertThat(holders(s, "d")).containsExactly(0, 1);
            // u, sent to worker 1 too, names it a holder of d
            s.submit(List.of(TaskSpec.builder("u", args -> 3).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            assertThat(wire.lastCompute("u").holders().get("d")).contains(1);

            // the copy vanishes under t: worker 1 is told to drop d (release 1), and t is placed
            // there again, to fetch d from worker 0 once that release is handled
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 1));
            assertThat(wire.releasedOn(1, "d")).isTrue();
            Message.Compute again = wire.lastCompute("t");
            assertThat(again.attempt()).isNotEqualTo(t.attempt());
            assertThat(again.releases()).isEqualTo(1);
            assertThat(holders(s, "d")).containsExactly(0);

            // worker 1 took u before the release: it fetched d and reported it, then the release
            // dropped the copy
            reply(s, new Message.DataAdded(1, "d", 8, 0));
            assertThat(holders(s, "d")).as("d's holders once the copy dropped by the release is reported")
                    .containsExactly(0);
            ClusterStats.WorkerStats one = s.stats().workers().get(1);
            assertThat(one.keysHeld()).as("the keys counted on worker 1, which holds none").isZero();
            assertThat(one.memoryBytes()).as("the bytes counted on worker 1").isZero();
            s.checkCountsForTests();

            // then it took t again, fetched d once more and reported that copy, which counts
            reply(s, new Message.DataAdded(1, "d", 8, 1));
            assertThat(holders(s, "d")).containsExactly(0, 1);
            assertThat(s.stats().workers().get(1).keysHeld()).isEqualTo(1);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    private static Set<Integer> holders(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> new TreeSet<>(tasks.get(key).holders));
    }
}
