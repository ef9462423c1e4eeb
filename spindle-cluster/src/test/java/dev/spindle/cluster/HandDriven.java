/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * For tests that drive a {@link GraphScheduler} by hand, playing its workers: settings with
 * nothing periodic (no stealing, no balance rounds) and a reply that waits until it is handled.
 */
final class HandDriven {

    private HandDriven() {
    }

    /**
     * Settings for {@code workers} one-thread workers, nothing periodic, one retry, and a task that
     * no live worker may run failing at once (no wait for a worker to join, which the tests of that
     * wait set themselves): the scenarios written before the wait existed build on that failure.
     */
    static CoordinatorSettings.Builder settings(int workers) {
        return CoordinatorSettings.builder().workers(workers).threadsPerWorker(1).bandwidth(100e6)
                .latency(Duration.ofMillis(1)).stealing(false).balanceInterval(Duration.ZERO).retries(1)
                .minStealDuration(Duration.ofMillis(1)).saturatedOccupancy(Duration.ofMillis(400))
                .defaultDuration(Duration.ofMillis(500)).noWorkerTimeout(Duration.ZERO);
    }

    /** Delivers a worker message and waits until the scheduler has handled it. */
    static void reply(GraphScheduler s, Message.ToScheduler m) {
        s.receive(m);
        s.stealEvents();             // a call queued behind the message: a barrier
    }

    /**
     * A result lost and computed again on the worker that had fetched a copy of it: submits d
     * (on worker 0) and t (on worker 1) and u (on worker 0), which both need d; finishes d, so
     * that worker 1 fetches it for t; then loses worker 0, so that u waits again and d is computed
     * again on worker 1. Worker 1's fetch, made before the loss, is not reported yet.
     *
     * @param futures the futures of d, t and u
     * @param again the recomputation of d sent to worker 1
     */
    record RecomputedOnItsFetcher(List<CompletableFuture<Object>> futures, Message.Compute again) {
    }

    /** Plays {@link RecomputedOnItsFetcher} on {@code s} (two workers), recording on {@code wire}. */
    static RecomputedOnItsFetcher recomputedOnItsFetcher(GraphScheduler s, RecordingTransport wire) {
        List<CompletableFuture<Object>> fs = s.submit(List.of(
                TaskSpec.builder("d", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build(),
                TaskSpec.builder("t", args -> 2).dependsOn("d").restrictions(Restrictions.loose(Set.of(1)))
                        .build(),
                TaskSpec.builder("u", args -> 3).dependsOn("d").restrictions(Restrictions.loose(Set.of(0)))
                        .build()));
        reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 1, 8, 1000));
        assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);   // fetches d from worker 0
        assertThat(wire.workerOfLastCompute("u")).isEqualTo(0);

        reply(s, new Message.WorkerLost(0));  // u waits again and has d computed again, on worker 1
        Message.Compute again = wire.lastCompute("d");
        assertThat(wire.workerOfLastCompute("d")).isEqualTo(1);
        return new RecomputedOnItsFetcher(fs, again);
    }
}
