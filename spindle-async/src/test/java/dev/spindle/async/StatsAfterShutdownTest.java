/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a runtime reports once a shutdown that found a poll running is complete. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatsAfterShutdownTest {

    /**
     * A terminated runtime has no worker threads, so {@link SchedulerStats#activeWorkers()}
     * (documented as exact, zero, once the scheduler is quiet) must be zero. The worker that was
     * polling when the shutdown came exits without registering as parked, so it stayed
     * "active" for good, and so did the {@code spindle.async.workers.active} gauge.
     */
    @Test
    void aRuntimeShutDownDuringAPollReportsNoActiveWorkerOnceTerminated() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("stats-after-shutdown").build();
        CountDownLatch polling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        rt.spawn(cx -> {
            polling.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);  // a poll still running when shutdown comes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Poll.ready("done");
        });
        assertThat(polling.await(10, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(rt::shutdown, "closer");
        closer.start();
        while (!rt.isShutdown()) {
            Thread.onSpinWait();
        }
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(rt.isTerminated()).isTrue();
        SchedulerStats s = rt.stats();
        assertThat(s.activeWorkers()).as("active workers of a terminated runtime: %s", s).isZero();
    }
}
