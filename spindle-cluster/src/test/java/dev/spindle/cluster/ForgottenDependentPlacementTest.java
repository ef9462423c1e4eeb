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
 * A finished task places its dependents that became ready one after the other; with
 * {@code forgetReleased}, one of them that fails as it is placed (no allowed worker is alive) and
 * whose future was released is forgotten at once, which unlinks it from the finished task's
 * dependents while they are being walked. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForgottenDependentPlacementTest {

    /**
     * "d" (strictly restricted to worker 1, its future released) and "e" both wait for "t"; worker
     * 1 is lost before "t" finishes. Placing "d" fails it and forgets it, and the walk over "t"'s
     * dependents stopped there with a ConcurrentModificationException: "e" stayed waiting for good
     * and its future never completed.
     */
    @Test
    void aDependentForgottenAsItFailsToBePlacedDoesNotStopTheOthersBeingPlaced() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("t", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            CompletableFuture<Object> d = s.submit(List.of(TaskSpec.builder("d", args -> 2).dependsOn("t")
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            CompletableFuture<Object> e = s.submit(List.of(TaskSpec.builder("e", args -> 3).dependsOn("t").build()))
                    .get(0);
            s.releaseFuture("d");                                     // fire and forget
            reply(s, new Message.WorkerLost(1));                      // d's only worker
            reply(s, new Message.TaskFinished(0, "t", wire.lastCompute("t").attempt(), 1, 4, 1000));

            // futures are completed on the scheduler's notifier thread: wait for it
            assertThat(d).as("d: no allowed worker is alive").failsWithin(Duration.ofSeconds(10));
            assertThat(wire.lastCompute("e")).as("e placed once t is in memory").isNotNull();
            reply(s, new Message.TaskFinished(0, "e", wire.lastCompute("e").attempt(), 3, 4, 1000));
            assertThat(e.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        } finally {
            s.close();
        }
    }
}
