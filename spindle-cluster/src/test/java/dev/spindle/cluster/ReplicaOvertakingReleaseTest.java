/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A retirement's copy order ({@link Message.Replicate}) may reach its target ahead of a release
 * of the same key that the scheduler sent the target before it (a transport between JVMs may
 * deliver frames out of send order: Hazelcast does). The target still held the released, earlier
 * value of the key, took it for the copy and reported it at once ({@link Message.DataAdded}); the
 * scheduler counted it as a holder of the current value and let the retiring worker go; then the
 * release arrived and dropped that copy. The current value was gone with the retired worker, and
 * until the release arrived a dependent fetching from the target would have read the earlier
 * value. A task ({@link Message.Compute#releases}) waits for the releases sent before it; the copy
 * order must too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicaOvertakingReleaseTest {

    /**
     * With {@code forgetReleased}: worker 0 holds k = 1; the client releases k (the ReleaseKey to
     * worker 0 is overtaken), submits a new k that worker 1 computes as 2, and retires worker 1,
     * whose k is copied to worker 0. d(k), on worker 0 once worker 1 is gone, must read 2.
     */
    @Test
    void aCopyOrderThatOvertakesAReleaseOfItsKeyDoesNotKeepTheReleasedValue() throws Exception {
        MessageOrderRegressionTest.Reordering t = new MessageOrderRegressionTest.Reordering();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), t);
        t.scheduler = s;
        try {
            CompletableFuture<Object> k1 = s.submit(List.of(TaskSpec.builder("k", args -> 1)
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            assertThat(k1.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            t.holdReleases = true;            // the frame with the ReleaseKey is overtaken
            s.releaseFuture("k");
            t.settle();
            assertThat(t.held).as("k released to worker 0").hasSize(1);

            CompletableFuture<Object> k2 = s.submit(List.of(TaskSpec.builder("k", args -> 2)
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            t.settle();
            t.finish(1, "k", 2);
            assertThat(k2.get(30, TimeUnit.SECONDS)).isEqualTo(2);

            CompletableFuture<Void> retired = s.retire(1);
            t.settle();
            assertThat(t.replicates()).as("worker 1's k copied to worker 0").isEqualTo(1);
            t.deliverHeld();                  // the ReleaseKey arrives after the copy order
            retired.get(30, TimeUnit.SECONDS);

            CompletableFuture<Object> d = s.submit(List.of(TaskSpec.builder("d", args -> args.get(0)).dependsOn("k")
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            t.settle();
            assertThat(d.get(30, TimeUnit.SECONDS)).as("d's input is the current k, computed as 2").isEqualTo(2);
        } finally {
            s.close();
            t.close();
        }
    }

    /** The count that orders a copy order after the releases sent before it travels with it between JVMs. */
    @Test
    void theReleaseCountOfACopyOrderTravelsWithIt() {
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, new Message.Replicate("k", List.of(1, 2), 7), MessageCodec.NONE);
        assertThat(MessageCodec.readBody(new WireReader(out.toByteArray(), 0, out.size()), MessageCodec.NONE))
                .isEqualTo(new Message.Replicate("k", List.of(1, 2), 7));
    }
}
