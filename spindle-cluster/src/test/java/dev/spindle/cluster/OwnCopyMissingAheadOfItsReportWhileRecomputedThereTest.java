/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Replies reordered: a worker that had fetched a copy of d before d's only holder was lost, and
 * now computes d again, reports that copy missing (it could not read it back) before its report
 * of the copy arrives. No release of d may go to that worker (it would drop the recomputation),
 * so, still a fetcher, the late report was counted: a copy the worker no longer had, a holder named
 * to fetchers, until the recomputation ended there (or for good, had it left unfinished). No
 * report of that worker's copy counts while the run is there now, and a run that leaves it
 * unfinished has the key released there. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OwnCopyMissingAheadOfItsReportWhileRecomputedThereTest {

    @Test
    void theLateReportIsNotCountedWhileTheKeyIsComputedAgainThere() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            HandDriven.RecomputedOnItsFetcher lost = HandDriven.recomputedOnItsFetcher(s, wire);
            Message.Compute t = wire.lastCompute("t");
            int sent = wire.sentToWorkers().size();

            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 1));
            reply(s, new Message.DataAdded(1, "d", 8, t.releases()));   // the copy's report, late

            assertThat(holders(s)).as("the holders of d, whose copy on worker 1 is gone").isEmpty();
            assertThat(s.stats().workers().get(1).keysHeld()).as("the keys counted on worker 1").isZero();
            assertThat(wire.sentToWorkers().subList(sent, wire.sentToWorkers().size()))
                    .as("worker 1, which computes d again, is not told to drop d (and with it that job)")
                    .noneMatch(m -> m.worker() == 1 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));
            s.checkCountsForTests();

            // the recomputation stores its value over the copy, and is counted
            reply(s, new Message.TaskFinished(1, "d", lost.again().attempt(), 1, 8, 1000));
            assertThat(holders(s)).as("the holders of d, computed again on worker 1").containsExactly(1);
            for (String key : List.of("t", "u")) {
                reply(s, new Message.TaskFinished(1, key, wire.lastCompute(key).attempt(), key.equals("t") ? 2 : 3, 8,
                        1000));
            }
            List<CompletableFuture<Object>> fs = lost.futures();
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(fs.get(2).get(10, TimeUnit.SECONDS)).isEqualTo(3);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    @Test
    void aRunThatLeavesUnfinishedHasTheKeyReleasedThere() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            HandDriven.RecomputedOnItsFetcher lost = HandDriven.recomputedOnItsFetcher(s, wire);
            Message.Compute t = wire.lastCompute("t");
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 1));
            // a copy worker 1 holds all the same (fetched again since, say): not counted while d runs there
            reply(s, new Message.DataAdded(1, "d", 8, t.releases()));

            // worker 0 is back, and worker 1 retires: d, not started, moves
            s.join(0, 1);
            s.retire(1);
            Message.StealRequest move = null;
            for (RecordingTransport.Sent m : wire.sentToWorkers()) {
                if (m.worker() == 1 && m.message() instanceof Message.StealRequest r && r.key().equals("d")) {
                    move = r;
                }
            }
            assertThat(move).as("the move of d off worker 1").isNotNull();
            int sent = wire.sentToWorkers().size();
            reply(s, new Message.StealResponse(1, move.stealId(), "d", lost.again().attempt(), true));

            assertThat(wire.sentToWorkers().subList(sent, wire.sentToWorkers().size()))
                    .as("worker 1, which the run of d left, is told to drop what it has of d")
                    .anyMatch(m -> m.worker() == 1 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));
            assertThat(holders(s)).as("the holders of d").isEmpty();
            s.checkCountsForTests();

            // d computed again on worker 0; a report of the old copy still on its way is not counted
            assertThat(wire.workerOfLastCompute("d")).isEqualTo(0);
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            reply(s, new Message.DataAdded(1, "d", 8, t.releases()));
            assertThat(holders(s)).as("the holders of d, computed again on worker 0").containsExactly(0);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    private static List<Integer> holders(GraphScheduler s) {
        return s.inspectTasks((tasks, ws) -> new ArrayList<>(tasks.get("d").holders));
    }
}
