/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A copy of a result that a worker reports fetched only after the result's last holder was lost
 * (the copy's report and the loss come from different members, in either order) is counted while
 * the result is computed again. If that recomputation fails for good, the copy must still be
 * released: nothing else ever would, and once the failed record is forgotten
 * ({@code forgetReleased}) the worker's record named a key the scheduler no longer had, so that
 * worker's loss stopped half-way and left its tasks unplaced. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedRecomputationCopyTest {

    @Test
    void aCopyCountedWhileItsResultIsComputedAgainIsReleasedWhenTheRecomputationFails() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).retries(0).forgetReleased(true).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(1))).build()));
            reply(s, new Message.TaskFinished(1, "d", t.lastCompute("d").attempt(), 1, 4, 1000));
            s.submit(List.of(TaskSpec.builder("e", args -> 2).restrictions(Restrictions.loose(Set.of(2)))
                    .durationHint(Duration.ofSeconds(10)).build()));
            s.submit(List.of(TaskSpec.builder("t", args -> args.get(0)).dependsOn("d")
                    .restrictions(Restrictions.loose(Set.of(0))).build()));
            assertThat(t.workerOfLastCompute("t")).as("t placed on worker 0, which fetches d from worker 1").isZero();
            s.submit(List.of(TaskSpec.builder("u", args -> 3).dependsOn("d", "e").build()));   // waits for e
            s.submit(List.of(TaskSpec.builder("g", args -> 4).restrictions(Restrictions.loose(Set.of(0)))
                    .durationHint(Duration.ofSeconds(10)).build()));
            assertThat(t.workerOfLastCompute("g")).isZero();

            reply(s, new Message.WorkerLost(1));                      // d is lost; u needs it, so it is computed again
            int again = t.workerOfLastCompute("d");
            assertThat(again).as("d computed again").isNotEqualTo(1);
            reply(s, new Message.DataAdded(0, "d", 4));               // worker 0's fetch of d, reported after the loss
            reply(s, new Message.TaskFinished(0, "t", t.lastCompute("t").attempt(), 1, 4, 1000));
            reply(s, new Message.TaskErred(again, "d", t.lastCompute("d").attempt(), new IllegalStateException("boom"),
                    1000));                                           // the recomputation fails for good
            for (String key : List.of("d", "t", "u")) {
                s.releaseFuture(key);
            }
            s.stealEvents();                                          // a barrier: the releases are handled

            assertThat(t.sentToWorkers()).as("worker 0 told to drop its copy of d")
                    .anyMatch(x -> x.worker() == 0 && x.message() instanceof Message.ReleaseKey r && r.key().equals("d"));
            reply(s, new Message.WorkerLost(0));
            assertThat(t.workerOfLastCompute("g")).as("g, queued on the lost worker 0, placed again").isEqualTo(2);
        } finally {
            s.close();
        }
    }
}
