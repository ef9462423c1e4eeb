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
 * A lost result computed again on the worker that had fetched a copy of it (counted as a holder
 * once that fetch is reported) measured another size the second time: the holders did not change,
 * so the bytes a dependent processing elsewhere lacks were still counted at the first size, and that
 * worker's transfer cost (placement, stealing) stayed wrong while the dependent processed there.
 * Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecomputedResultOfAnotherSizeRecountsTransferCostTest {

    @Test
    void aDependentProcessingElsewhereLacksTheNewSize() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("d", args -> 1).restrictions(Restrictions.strict(Set.of(0, 1)))
                    .build()));
            assertThat(wire.workerOfLastCompute("d")).isZero();
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
            // worker 1 fetches d for t; worker 2 fetches it for v
            s.submit(List.of(
                    TaskSpec.builder("t", args -> 2).dependsOn("d").restrictions(Restrictions.strict(Set.of(1))).build(),
                    TaskSpec.builder("v", args -> 3).dependsOn("d").restrictions(Restrictions.strict(Set.of(2))).build()));
            assertThat(wire.workerOfLastCompute("v")).isEqualTo(2);
            assertThat(s.<Long>inspect((ws, d) -> ws.get(2).bytesMissing())).isEqualTo(8L);

            // d's only holder is lost; u needs it, so d is computed again, on worker 1 (0 is gone)
            reply(s, new Message.WorkerLost(0));
            s.submit(List.of(TaskSpec.builder("u", args -> 4).dependsOn("d")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            Message.Compute again = wire.lastCompute("d");
            assertThat(wire.workerOfLastCompute("d")).isEqualTo(1);
            // worker 1's fetch, made before the loss, is reported now: it counts as a holder
            reply(s, new Message.DataAdded(1, "d", 8));
            s.balanceNow();                   // a balance round reads the transfer costs, recounting v's share
            // the second run measures 1000 bytes: v, still processing on worker 2, lacks those
            reply(s, new Message.TaskFinished(1, "d", again.attempt(), 1, 1000, 1000));

            assertThat(s.<Long>inspect((ws, d) -> ws.get(2).bytesMissing()))
                    .as("the bytes worker 2's processing task v lacks")
                    .isEqualTo(1000L);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }
}
