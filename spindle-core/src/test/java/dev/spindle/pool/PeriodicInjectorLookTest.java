/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The look a busy worker takes at the injector every {@value Worker#GLOBAL_INTERVAL}th task
 * takes one task, not a batch: a batch pushed into a deque that still holds local work filled
 * it, the next local push overflowed half of it back to the injector, and with many local
 * tasks (ping-pong's thousand pairs) that cycle repeated every 61 tasks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeriodicInjectorLookTest {

    private static final int PAIRS = 1_000;
    private static final int HOPS = 20;

    /**
     * One worker, so no thief moves anything: a task starts 1,000 chains of 20 hops each, more
     * than the deque's 256 slots hold, so the first pushes overflow to the injector (about
     * 750 tasks, once). After that the deque holds 128-256 chains and each hop pushes the next,
     * so a periodic look that took a batch overflowed again at once (tens of thousands of moved
     * tasks); taking one task leaves the deque's length as it was, barring the one extra chain
     * each look starts.
     */
    @Test
    void aBusyWorkersPeriodicLookDoesNotCycleTasksThroughTheInjector() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0)
                .localQueueCapacity(256).build()) {
            AtomicInteger hops = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(PAIRS);
            pool.execute(() -> {
                for (int i = 0; i < PAIRS; i++) {
                    pool.execute(() -> hop(pool, HOPS, hops, done));
                }
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).as("all chains finished").isTrue();
            assertThat(hops.get()).isEqualTo(PAIRS * (HOPS + 1));
            long overflowed = pool.stats().workers().stream().mapToLong(SchedulerStats.WorkerStats::overflowed).sum();
            // the first pushes overflow at most PAIRS tasks; a few more for the chains the
            // periodic looks start, but nothing like a batch every 61 tasks
            assertThat(overflowed).as("tasks moved from the full deque to the injector").isLessThan(2L * PAIRS);
        }
    }

    private static void hop(WorkStealingPool pool, int left, AtomicInteger hops, CountDownLatch done) {
        hops.incrementAndGet();
        if (left == 0) {
            done.countDown();
        } else {
            pool.execute(() -> hop(pool, left - 1, hops, done));
        }
    }
}
