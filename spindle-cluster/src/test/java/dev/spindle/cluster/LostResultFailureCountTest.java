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
 * A result that succeeded and was then lost with its worker is not a failure when a recomputation
 * of one of its inputs fails: it stays lost (computed again, and failing then, only if a task
 * needs it), as a released one stays released. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LostResultFailureCountTest {

    @Test
    void aFailedRecomputationDoesNotCountALostResultThatSucceededAsFailed() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).build(), t);
        try {
            // a and b both on worker 0; the client holds b's future
            s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "a", t.lastCompute("a").attempt(), 1, 4, 1000));
            CompletableFuture<Object> b = s.submit(List.of(TaskSpec.builder("b", args -> 2).dependsOn("a")
                    .restrictions(Restrictions.loose(Set.of(0))).build())).get(0);
            assertThat(t.workerOfLastCompute("b")).isZero();
            reply(s, new Message.TaskFinished(0, "b", t.lastCompute("b").attempt(), 2, 4, 1000));
            assertThat(b.get(10, TimeUnit.SECONDS)).as("b succeeded").isEqualTo(2);
            reply(s, new Message.WorkerLost(0));                      // a and b are lost with it

            s.submit(List.of(TaskSpec.builder("c", args -> 3).dependsOn("a").build()));   // c needs a again
            assertThat(t.workerOfLastCompute("a")).as("a computed again on worker 1").isEqualTo(1);
            reply(s, new Message.TaskErred(1, "a", t.lastCompute("a").attempt(), new IllegalStateException("boom"),
                    1000));

            assertThat(s.stats().tasksErred()).as("failed tasks: a and c; b succeeded, and was only lost")
                    .isEqualTo(2);
        } finally {
            s.close();
        }
    }
}
