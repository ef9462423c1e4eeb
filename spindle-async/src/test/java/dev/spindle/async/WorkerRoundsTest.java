/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A worker's loop goes round again (re-entering {@code AsyncWorker.round} through the method's
 * current compiled code) whenever the worker has parked, not only after
 * {@value AsyncWorker#PICKS_PER_ROUND} tasks: under light load a round counted in tasks alone
 * lasted minutes, running code the JIT had replaced, and in 4 of 10 JVMs a fan-out of 1,000
 * tasks at a time ran 4 to 6 times slower for the whole run (docs/BENCHMARKS.md, session 22).
 * Two tasks with a park between them must take two rounds.
 */
class WorkerRoundsTest {

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aParkEndsTheRound(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).build()) {
            rt.spawn(cx -> Poll.ready(1)).get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (rt.stats().parks() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(rt.stats().parks()).as("the worker parked after the first task").isPositive();
            rt.spawn(cx -> Poll.ready(2)).get(10, TimeUnit.SECONDS);   // wakes it: the round ends
            assertThat(rt.workers[0].rounds).as("rounds begun again after a park").isPositive();
        }
    }
}
