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
 * The bytes moved between workers ({@link ClusterStats#bytesTransferred}) add up the sizes the
 * workers report for the copies they fetched. The codec refuses a negative size, and the
 * scheduler's other sums of sizes saturate (a worker's memory, placement), so the stats' sum must
 * too: two reports of a size near {@code Long.MAX_VALUE} (a worker's word, or years of traffic)
 * wrapped it to a negative count of bytes moved. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BytesMovedSaturatesTest {

    @Test
    void theBytesMovedStayAtLongMaxValueInsteadOfWrapping() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build(),
                    TaskSpec.builder("b", args -> 2).restrictions(Restrictions.loose(Set.of(0))).build(),
                    TaskSpec.builder("t", args -> 3).dependsOn("a", "b").restrictions(Restrictions.loose(Set.of(1)))
                            .build()));
            reply(s, new Message.TaskFinished(0, "a", wire.lastCompute("a").attempt(), 1, 8, 1000));
            reply(s, new Message.TaskFinished(0, "b", wire.lastCompute("b").attempt(), 2, 8, 1000));
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);   // fetches a and b from worker 0

            reply(s, new Message.DataAdded(1, "a", Long.MAX_VALUE - 1));
            reply(s, new Message.DataAdded(1, "b", Long.MAX_VALUE - 1));

            assertThat(s.stats().bytesTransferred()).as("bytes moved").isEqualTo(Long.MAX_VALUE);
        } finally {
            s.close();
        }
    }
}
