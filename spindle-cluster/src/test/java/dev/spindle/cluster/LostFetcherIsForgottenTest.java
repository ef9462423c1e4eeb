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
 * A worker lost while it fetched a copy of a result stayed recorded as fetching it for as long as
 * the result was held: one record per worker id that ever joined and was lost so, for every value a
 * client keeps, in a cluster whose workers come and go. The loss forgets it; the id, joined again,
 * is asked afresh and its copy counted as any other's. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LostFetcherIsForgottenTest {

    @Test
    void aWorkerLostWhileItFetchesIsNoLongerRecordedAsFetching() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), wire);
        try {
            CompletableFuture<Object> k = s.submit(List.of(TaskSpec.builder("k", args -> 1).build())).get(0);
            reply(s, new Message.TaskFinished(0, "k", wire.lastCompute("k").attempt(), 1, 8, 1000));

            for (int id = 1; id <= 8; id++) {
                s.join(id, 1);
                s.submit(List.of(TaskSpec.builder("t" + id, args -> 2).dependsOn("k")
                        .restrictions(Restrictions.strict(Set.of(id))).build()));
                assertThat(wire.workerOfLastCompute("t" + id)).isEqualTo(id);   // fetches k from worker 0
                reply(s, new Message.WorkerLost(id));
                assertThat(s.retainedForTests().get("fetchers")).as("fetchers recorded after worker %d was lost", id)
                        .isZero();
            }

            // an id joined again is asked afresh, and its copy counted
            s.join(3, 1);
            s.submit(List.of(TaskSpec.builder("u", args -> 3).dependsOn("k")
                    .restrictions(Restrictions.strict(Set.of(3))).build()));
            Message.Compute u = wire.lastCompute("u");
            reply(s, new Message.DataAdded(3, "k", 8, u.releases()));
            assertThat(s.stats().workers().get(3).keysHeld()).as("the keys counted on worker 3").isEqualTo(1);
            assertThat(k.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }
}
