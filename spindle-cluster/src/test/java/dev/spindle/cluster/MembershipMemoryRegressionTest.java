/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session-31 review of the release count ({@link Message.Compute#releases}) when the scheduler's
 * frames reach a worker out of order (Hazelcast delivers them so): the count says how many
 * releases were sent before a task, not which, and a release says nothing of the tasks of its key
 * that have not arrived yet.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MembershipMemoryRegressionTest {

    /**
     * The scheduler sent worker 0 release 1 (of k: an earlier attempt failed there), then k's
     * retry (after 1 release), then release 2 (of y). Delivered y's release first, the count of 1
     * admitted the retry: it ran and stored its value, then the release of k sent before it
     * dropped the value the scheduler counts as held there (it accepted the retry's result).
     */
    @Test
    void aReleaseSentBeforeATaskNeverDropsTheValueTheTaskStores() throws Exception {
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            // sent: release 1 (k: an earlier attempt failed here), k's retry (after 1), release 2 (y)
            w.receive(new Message.ReleaseKey("y", 2));
            w.receive(new Message.Compute("k", 2, args -> "current", List.of(), Map.of(), 0, 1));
            g.transport.awaitFinishedAtMost("k", 2, 2_000); // admitted on the count, it runs before k's release arrives
            w.receive(new Message.ReleaseKey("k", 1));
            // a later task, after both releases, on the one thread: everything before it is handled
            w.receive(new Message.Compute("z", 1, args -> "z", List.of(), Map.of(), 0, 2));
            g.transport.awaitFinished("z", 1);
            g.transport.awaitFinished("k", 2);
            assertThat(w.store().contains("k")).as("worker 0 still holds k's current value, reported as stored")
                    .isTrue();
        }
    }

    /**
     * The scheduler placed attempt 1 of k on worker 0, then (k resubmitted) released it there
     * (release 1) and placed attempt 2 there too (after 1 release). Delivered the release,
     * attempt 2, then attempt 1: the stale attempt, arriving last, replaced the current one's
     * job (or stored over its value), so k's value on worker 0 is the stale one, or none at all.
     */
    @Test
    void aStaleAttemptArrivingLastNeitherReplacesNorOverwritesTheCurrentOne() throws Exception {
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            g.hold();                         // holds the one thread: attempt 2 stays queued
            w.receive(new Message.ReleaseKey("k", 1));
            w.receive(new Message.Compute("k", 2, args -> "current", List.of(), Map.of(), 0, 1));
            w.receive(new Message.Compute("k", 1, args -> "stale", List.of(), Map.of(), 0, 0));
            g.open();
            g.transport.awaitFinishedAtMost("k", 2, 10_000);    // replaced by the stale one, it never reports
            w.receive(new Message.Compute("z", 1, args -> "z", List.of(), Map.of(), 0, 1));
            assertThat(g.transport.awaitFinished("z", 1)).as("the current attempt ran and reported")
                    .anySatisfy(m -> assertThat(m).isInstanceOfSatisfying(Message.TaskFinished.class,
                            f -> assertThat(f.key() + "/" + f.attempt()).isEqualTo("k/2")));
            assertThat(w.store().get("k")).as("k's value on worker 0").isEqualTo("current");
        }
    }

    /**
     * Attempt 1 of k was placed on worker 0, then released there (k resubmitted, attempt 2 placed
     * on worker 1). Delivered the release first, then attempt 1: nothing was left to abandon, so
     * the stale attempt ran and stored its value, which a dependent placed on worker 0 then read
     * as k's instead of fetching the current value from worker 1.
     */
    @Test
    void aStaleAttemptArrivingAfterItsReleaseIsNotReadByADependent() throws Exception {
        try (GatedWorker g = GatedWorker.fetching("current")) {     // worker 1's value of k
            ClusterWorker w = g.worker;
            w.receive(new Message.ReleaseKey("k", 1));
            w.receive(new Message.Compute("k", 1, args -> "stale", List.of(), Map.of(), 0, 0));
            // the dependent, sent after the release, once worker 1 reported k's current value
            w.receive(new Message.Compute("d", 1, args -> "d of " + args.get(0), List.of("k"),
                    Map.of("k", List.of(1)), 0, 1));
            assertThat(g.transport.awaitFinished("d", 1)).as("d read k's current value").anySatisfy(m -> assertThat(m)
                    .isInstanceOfSatisfying(Message.TaskFinished.class,
                            f -> assertThat(f.key() + "=" + f.value()).isEqualTo("d=d of current")));
        }
    }
}
