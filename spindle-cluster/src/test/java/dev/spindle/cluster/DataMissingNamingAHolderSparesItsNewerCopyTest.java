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
 * A {@link Message.DataMissing} from a task's worker that names another worker as the holder it
 * could not fetch the input from, arriving after that holder had lost the copy named in the task's
 * assignment and stored a newer one, counted since (the key computed again there, or fetched there
 * again): replies of different workers come in any order, and a transport may reorder one worker's
 * frames too. The scheduler dropped the newer copy's record and told the holder to drop the
 * copy, which a task there may have fetched it for, and the key was computed again for nothing.
 * The report is about the copy the assignment named, counted before it was sent; a copy counted
 * after is kept. A worker's report of its own copy is not such a report: nobody else says that copy
 * is gone, so it uncounts the copy even when that was counted after the report's own task was sent
 * (an input fetched for that very task, then unreadable). Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DataMissingNamingAHolderSparesItsNewerCopyTest {

    @Test
    void aCopyComputedAgainOnTheHolderIsKept() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(
                    TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build(),
                    TaskSpec.builder("e", args -> 2).restrictions(Restrictions.strict(Set.of(2))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            // t runs on worker 1, which fetches d from worker 0; v waits for e, which runs on
            s.submit(List.of(
                    TaskSpec.builder("t", args -> 3).dependsOn("d").restrictions(Restrictions.strict(Set.of(1)))
                            .build(),
                    TaskSpec.builder("v", args -> 4).dependsOn("d", "e")
                            .restrictions(Restrictions.strict(Set.of(1))).build()));
            Message.Compute t = wire.lastCompute("t");
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);
            assertThat(t.holders().get("d")).containsExactly(0);

            // worker 0 lost its copy as it served worker 1's fetch, and said so: d, lost, is computed
            // again for v, on worker 0, and its new copy counted
            reply(s, new Message.DataMissing(0, "d", 0, "d", 0));
            assertThat(wire.workerOfLastCompute("d")).as("d computed again").isEqualTo(0);
            Message.Compute again = wire.lastCompute("d");
            assertThat(again.attempt()).isGreaterThan(t.attempt());
            reply(s, new Message.TaskFinished(0, "d", again.attempt(), 1, 8, 1000));
            assertThat(holders(s)).containsExactly(0);
            int sent = wire.sentToWorkers().size();

            // worker 1's report that it could not fetch d from worker 0, late
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 0));

            List<RecordingTransport.Sent> after = wire.sentToWorkers().subList(sent, wire.sentToWorkers().size());
            assertThat(holders(s)).as("the holders of d, computed again on worker 0 after t was sent")
                    .containsExactly(0);
            assertThat(after).as("worker 0, which holds d's new value, is not told to drop it")
                    .noneMatch(m -> m.worker() == 0 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));
            assertThat(after).as("d, held, is not computed again")
                    .noneMatch(m -> m.message() instanceof Message.Compute c && c.key().equals("d"));
            assertThat(wire.lastCompute("t").attempt()).as("t placed again").isGreaterThan(t.attempt());
            assertThat(wire.lastCompute("t").holders().get("d")).as("the holders t is sent for d")
                    .containsExactly(0);
            assertThat(s.stats().workers().get(0).keysHeld()).as("the keys counted on worker 0").isEqualTo(1);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    @Test
    void aCopyFetchedAgainByTheHolderIsKept() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            // y on worker 2 fetches a copy of d: d is held by workers 0 and 2
            s.submit(List.of(TaskSpec.builder("y", args -> 2).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(2))).build()));
            Message.Compute y = wire.lastCompute("y");
            reply(s, new Message.DataAdded(2, "d", 8, y.releases()));
            reply(s, new Message.TaskFinished(2, "y", y.attempt(), 2, 8, 1000));
            assertThat(holders(s)).containsExactlyInAnyOrder(0, 2);

            // t runs on worker 1, which tries worker 0 (no answer), then worker 2
            s.submit(List.of(TaskSpec.builder("t", args -> 3).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            Message.Compute t = wire.lastCompute("t");
            assertThat(t.holders().get("d")).containsExactly(0, 2);

            // worker 2 lost its copy as it served that fetch, and said so; then x, placed there, has
            // it fetch d again, and its new copy is counted
            reply(s, new Message.DataMissing(2, "d", 0, "d", 2));
            assertThat(holders(s)).containsExactly(0);
            s.submit(List.of(TaskSpec.builder("x", args -> 4).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(2))).build()));
            Message.Compute x = wire.lastCompute("x");
            assertThat(x.attempt()).isGreaterThan(t.attempt());
            reply(s, new Message.DataAdded(2, "d", 8, x.releases()));
            assertThat(holders(s)).containsExactlyInAnyOrder(0, 2);
            int sent = wire.sentToWorkers().size();

            // worker 1's report that it could not fetch d, naming worker 2, the last it tried, late
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 2));

            List<RecordingTransport.Sent> after = wire.sentToWorkers().subList(sent, wire.sentToWorkers().size());
            assertThat(holders(s)).as("the holders of d, fetched again by worker 2 after t was sent")
                    .containsExactlyInAnyOrder(0, 2);
            assertThat(after).as("worker 2, which holds the copy x fetched, is not told to drop it")
                    .noneMatch(m -> m.worker() == 2 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));
            assertThat(s.stats().workers().get(2).keysHeld()).as("the keys counted on worker 2").isEqualTo(2);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    @Test
    void theCopyTheAssignmentNamedIsStillUncounted() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            s.submit(List.of(TaskSpec.builder("y", args -> 2).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(2))).build()));
            Message.Compute y = wire.lastCompute("y");
            reply(s, new Message.DataAdded(2, "d", 8, y.releases()));
            reply(s, new Message.TaskFinished(2, "y", y.attempt(), 2, 8, 1000));
            s.submit(List.of(TaskSpec.builder("t", args -> 3).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            Message.Compute t = wire.lastCompute("t");
            int sent = wire.sentToWorkers().size();

            // worker 1 could not fetch d from worker 2 (which did not answer): the copy t was sent
            // for is no longer counted, and worker 2 is told to drop what it may still have
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 2));

            List<RecordingTransport.Sent> after = wire.sentToWorkers().subList(sent, wire.sentToWorkers().size());
            assertThat(holders(s)).containsExactly(0);
            assertThat(after).anyMatch(m -> m.worker() == 2 && m.message() instanceof Message.ReleaseKey r
                    && r.key().equals("d"));
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    @Test
    void aWorkersReportOfItsOwnCopyCountedAfterItsTaskWasSentStillUncountsIt() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            s.submit(List.of(TaskSpec.builder("y", args -> 2).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(2))).build()));
            Message.Compute y = wire.lastCompute("y");
            // worker 2 fetches d for y: its copy is counted after y's assignment took its number
            reply(s, new Message.DataAdded(2, "d", 8, y.releases()));
            assertThat(holders(s)).containsExactly(0, 2);
            int sent = wire.sentToWorkers().size();

            // y cannot read that copy back (its spill file unreadable): worker 2 lost it, and its
            // own report is the only one that will say so; skipped as "about an earlier copy", worker
            // 2 stayed counted a holder of a value it does not have, and y was placed there again
            // for it
            reply(s, new Message.DataMissing(2, "y", y.attempt(), "d", 2));

            List<RecordingTransport.Sent> after = wire.sentToWorkers().subList(sent, wire.sentToWorkers().size());
            assertThat(holders(s)).as("the holders of d once worker 2 reported its copy lost").containsExactly(0);
            assertThat(wire.lastCompute("y").attempt()).as("y placed again").isGreaterThan(y.attempt());
            assertThat(wire.lastCompute("y").holders().get("d")).as("the holders y is sent for d")
                    .containsExactly(0);
            assertThat(after).as("worker 2 told to drop what it may have of d")
                    .anyMatch(m -> m.worker() == 2 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    private static List<Integer> holders(GraphScheduler s) {
        return s.inspectTasks((tasks, ws) -> new ArrayList<>(tasks.get("d").holders));
    }
}
