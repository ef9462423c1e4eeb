/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a worker is lost, a waiting task recomputes the lost inputs it needs, walking them from a
 * stack; one of them failing as it is placed (no allowed worker is alive) fails the task, and
 * the inputs still on the stack are needed by nobody any more. Recomputing them anyway wasted the
 * work and, with {@code forgetReleased}, placed a record the failure had released and forgotten:
 * it stayed processing on its worker for good, its result ignored, so that worker never counted
 * as idle and could never finish retiring. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LostInputsOfAFailingTaskAreNotRecomputedTest {

    @Test
    void anInputOnlyAFailedTaskNeededIsNotRecomputedAfterAWorkerLoss() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            // "a" only worker 1 may run; "b" and "c" prefer it; every future released (fire and forget)
            s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(1))).build(),
                    TaskSpec.builder("b", args -> 2).restrictions(Restrictions.loose(Set.of(1))).build(),
                    TaskSpec.builder("c", args -> 3).dependsOn("b", "a").restrictions(Restrictions.loose(Set.of(1)))
                            .build()));
            for (String key : List.of("a", "b", "c")) {
                s.releaseFuture(key);
            }
            reply(s, new Message.TaskFinished(1, "a", wire.lastCompute("a").attempt(), 1, 4, 1000));
            reply(s, new Message.TaskFinished(1, "b", wire.lastCompute("b").attempt(), 2, 4, 1000));
            assertThat(wire.workerOfLastCompute("c")).isEqualTo(1);

            // "c" waits again and needs "a" and "b", both lost; "a" cannot be placed, which fails "c"
            reply(s, new Message.WorkerLost(1));

            assertThat(wire.workerOfLastCompute("b")).as("'b', which only the failed 'c' needed, is not computed again")
                    .isEqualTo(1);
            assertThat(s.retainedForTests()).as("nothing is left processing or recorded")
                    .containsEntry("processing", 0).containsEntry("tasks", 0);
        } finally {
            s.close();
        }
    }

    /**
     * An input skipped in that walk because the failed task alone needed it is still recomputed
     * when a task later in the same walk needs it: "x" fails as in the test above, leaving "p"
     * needed by nobody; then "z" recomputes "y", which needs "p" again. (The keys are chosen so
     * that "x" comes before "z" in the walk.)
     */
    @Test
    void anInputSkippedForAFailedTaskIsRecomputedForATaskLaterInTheSameWalk() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            Restrictions prefersOne = Restrictions.loose(Set.of(1));
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> 1).restrictions(prefersOne).build(),
                    TaskSpec.builder("a", args -> 2).restrictions(Restrictions.strict(Set.of(1))).build(),
                    TaskSpec.builder("y", args -> 3).dependsOn("p").restrictions(prefersOne).build(),
                    TaskSpec.builder("x", args -> 4).dependsOn("p", "a").restrictions(prefersOne).build(),
                    TaskSpec.builder("z", args -> 5).dependsOn("y").restrictions(prefersOne).build()));
            for (String key : List.of("p", "a", "y", "x")) {
                s.releaseFuture(key);             // only z's future is held
            }
            for (String key : List.of("p", "a", "y")) {
                reply(s, new Message.TaskFinished(1, key, wire.lastCompute(key).attempt(), 0, 4, 1000));
            }
            assertThat(wire.workerOfLastCompute("x")).isEqualTo(1);
            assertThat(wire.workerOfLastCompute("z")).isEqualTo(1);

            reply(s, new Message.WorkerLost(1));  // x and z wait again; p, a and y are lost; a cannot be placed

            assertThat(fs.get(3)).as("x: no allowed worker is alive for 'a'").failsWithin(Duration.ofSeconds(10));
            assertThat(wire.workerOfLastCompute("p")).as("'p' is computed again for 'y', which 'z' needs").isEqualTo(0);
            for (String key : List.of("p", "y", "z")) {
                assertThat(wire.workerOfLastCompute(key)).as(key).isEqualTo(0);
                reply(s, new Message.TaskFinished(0, key, wire.lastCompute(key).attempt(), 5, 4, 1000));
            }
            assertThat(fs.get(4).get(10, TimeUnit.SECONDS)).isEqualTo(5);
        } finally {
            s.close();
        }
    }
}
