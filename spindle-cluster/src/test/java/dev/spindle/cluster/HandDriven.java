/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.time.Duration;

/**
 * For tests that drive a {@link GraphScheduler} by hand, playing its workers: settings with
 * nothing periodic (no stealing, no balance rounds) and a reply that waits until it is handled.
 */
final class HandDriven {

    private HandDriven() {
    }

    /** Settings for {@code workers} one-thread workers, nothing periodic, one retry. */
    static CoordinatorSettings.Builder settings(int workers) {
        return CoordinatorSettings.builder().workers(workers).threadsPerWorker(1).bandwidth(100e6)
                .latency(Duration.ofMillis(1)).stealing(false).balanceInterval(Duration.ZERO).retries(1)
                .minStealDuration(Duration.ofMillis(1)).saturatedOccupancy(Duration.ofMillis(400))
                .defaultDuration(Duration.ofMillis(500));
    }

    /** Delivers a worker message and waits until the scheduler has handled it. */
    static void reply(GraphScheduler s, Message.ToScheduler m) {
        s.receive(m);
        s.stealEvents();             // a call queued behind the message: a barrier
    }
}
