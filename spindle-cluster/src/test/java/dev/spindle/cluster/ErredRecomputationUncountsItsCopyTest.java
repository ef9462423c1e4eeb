/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A result lost with its worker is computed again, here on the worker that had fetched a copy of
 * it before the loss and reports that copy after it: the copy counts (the key is in memory
 * there again). When that computation then fails, the scheduler tells the worker to drop the key
 * (a copy of a failed task must not outlive it), but it went on counting the copy: the worker's
 * keys and memory in the stats, and the key's holders, named a value the worker no longer had.
 * Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ErredRecomputationUncountsItsCopyTest {

    @Test
    void aCopyReleasedAfterAFailedRecomputationIsNoLongerCounted() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            Message.Compute again = HandDriven.recomputedOnItsFetcher(s, wire).again();  // d again on worker 1
            reply(s, new Message.DataAdded(1, "d", 8));   // worker 1's fetch for t, made before the loss
            assertThat(s.stats().workers().get(1).keysHeld()).isEqualTo(1);

            int sent = wire.sentToWorkers().size();
            reply(s, new Message.TaskErred(1, "d", again.attempt(), new IllegalStateException("test"), 1000));

            assertThat(wire.sentToWorkers().subList(sent, wire.sentToWorkers().size()))
                    .as("worker 1 is told to drop its copy of the failed d")
                    .anyMatch(m -> m.worker() == 1 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));
            ClusterStats.WorkerStats w1 = s.stats().workers().get(1);
            assertThat(w1.keysHeld()).as("keys counted on worker 1 after it was told to drop d").isZero();
            assertThat(w1.memoryBytes()).as("bytes counted on worker 1").isZero();
        } finally {
            s.close();
        }
    }
}
