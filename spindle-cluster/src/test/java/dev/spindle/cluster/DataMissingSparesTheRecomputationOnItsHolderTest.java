/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that cannot read a copy it is counted as holding (its spill file is damaged) reports
 * the input missing; the scheduler stops counting the copy and tells that worker to drop it. But
 * when the same worker runs the current attempt of that key (the result was lost and is computed
 * again there, and the copy, fetched before the loss, was reported after it), the release made it
 * drop that job: the recomputation never reported, and every task waiting for it waited for good.
 * Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataMissingSparesTheRecomputationOnItsHolderTest {

    @Test
    void aMissingCopyIsNotReleasedWhereItsKeyIsBeingComputedAgain() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            HandDriven.RecomputedOnItsFetcher lost = HandDriven.recomputedOnItsFetcher(s, wire);
            List<CompletableFuture<Object>> fs = lost.futures();
            Message.Compute again = lost.again();
            int sent = wire.sentToWorkers().size();

            // worker 1's fetch for t, made before the loss, is reported now; then it cannot read that copy
            reply(s, new Message.DataAdded(1, "d", 8));
            reply(s, new Message.DataMissing(1, "t", wire.lastCompute("t").attempt(), "d", 1));

            assertThat(wire.sentToWorkers().subList(sent, wire.sentToWorkers().size()))
                    .as("worker 1, which computes d again, is not told to drop d (and with it that job)")
                    .noneMatch(m -> m.worker() == 1 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("d"));

            reply(s, new Message.TaskFinished(1, "d", again.attempt(), 1, 8, 1000));
            for (String key : List.of("t", "u")) {
                reply(s, new Message.TaskFinished(1, key, wire.lastCompute(key).attempt(), key.equals("t") ? 2 : 3, 8,
                        1000));
            }
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(fs.get(2).get(10, TimeUnit.SECONDS)).isEqualTo(3);
        } finally {
            s.close();
        }
    }
}
