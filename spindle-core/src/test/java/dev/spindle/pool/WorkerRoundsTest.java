/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A worker's loop goes round again (re-entering its round through the method's current
 * compiled code, see {@code PoolCore.runWorker}) whenever the worker has parked, not only after
 * {@link BaseWorker#TASKS_PER_ROUND} tasks: under light load a round counted in tasks alone
 * lasted minutes, running code the JIT had replaced (an async runtime ran 4 to 6 times slower
 * for a whole run in such JVMs). Two tasks with a park between them must take two rounds.
 */
class WorkerRoundsTest {

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aParkEndsTheRound(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.create(1)) {
            run(pool);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (PoolKind.parks(pool) == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(PoolKind.parks(pool)).as("the worker parked after the first task").isPositive();
            run(pool);                         // wakes it: its park returns, the round ends
            BaseWorker w = pool.workerSlots()[0];
            assertThat(w.rounds).as("rounds begun again after a park").isPositive();
        }
    }

    private static void run(PoolCore pool) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(done::countDown);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }
}
