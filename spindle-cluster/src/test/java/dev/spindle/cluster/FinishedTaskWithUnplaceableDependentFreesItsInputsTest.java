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
 * A finished task whose inputs only it needed releases them, also when placing one of its
 * dependents fails (no allowed worker is alive) and, with {@code forgetReleased} and every future
 * released, that failure releases and forgets the finished task itself while it is being handled.
 * Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FinishedTaskWithUnplaceableDependentFreesItsInputsTest {

    /**
     * "in" -> "mid" -> "out", every future released (fire and forget); "out" is strictly restricted
     * to worker 1, which is lost before "mid" finishes. Placing "out" fails it, which released and
     * forgot "mid" (nothing needed it any more) and cleared its list of inputs before "mid"'s own
     * handling came to release them: "in" stayed on worker 0, and its record in the scheduler, for
     * good, with nothing left that would ever release it.
     */
    @Test
    void theInputsOfAFinishedTaskAreReleasedWhenItsDependentFailsToBePlaced() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("in", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("mid", args -> 2).dependsOn("in").restrictions(Restrictions.strict(Set.of(0)))
                            .build(),
                    TaskSpec.builder("out", args -> 3).dependsOn("mid").restrictions(Restrictions.strict(Set.of(1)))
                            .build()));
            for (String key : List.of("in", "mid", "out")) {
                s.releaseFuture(key);
            }
            reply(s, new Message.TaskFinished(0, "in", wire.lastCompute("in").attempt(), 1, 4, 1000));
            reply(s, new Message.WorkerLost(1));                      // out's only worker
            reply(s, new Message.TaskFinished(0, "mid", wire.lastCompute("mid").attempt(), 2, 4, 1000));

            assertThat(fs.get(2)).as("out: no allowed worker is alive").failsWithin(Duration.ofSeconds(10));
            assertThat(wire.sentToWorkers()).as("worker 0 is told to drop 'in', which nothing needs any more")
                    .anyMatch(m -> m.worker() == 0 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("in"));
            assertThat(s.retainedForTests()).as("nothing is kept for the graph")
                    .containsEntry("holds", 0).containsEntry("tasks", 0);
        } finally {
            s.close();
        }
    }
}
