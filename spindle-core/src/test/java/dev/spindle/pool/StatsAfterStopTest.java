/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a pool reports once {@code shutdownNow} stopped it with tasks running and queued. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatsAfterStopTest {

    /**
     * A terminated pool runs nothing: {@link SchedulerStats#activeWorkers()} is documented as
     * exact (zero) once the scheduler is quiet. A worker that was running a task when
     * {@code shutdownNow} came exits without ever registering as parked, so live minus parked
     * stayed above zero for good, and the {@code spindle.pool.workers.active} gauge showed a
     * busy worker on a pool that no longer had a thread.
     */
    @Test
    void aPoolStoppedWhileATaskRanReportsNoActiveWorkerOnceTerminated() throws Exception {
        for (PoolKind kind : PoolKind.values()) {
            PoolCore pool = kind.create(2);
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            pool.execute(() -> {
                running.countDown();
                try {
                    never.await();             // until shutdownNow's interrupt
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("%s", kind).isTrue();
            SchedulerStats s = pool.stats();
            assertThat(s.activeWorkers()).as("%s: active workers of a terminated pool: %s", kind, s).isZero();
        }
    }

    /**
     * {@code stolenFrom} counts "tasks other workers stole from this worker's deque", and the
     * pool promises that stolen-from and stolen-by add up ({@code StatsTest}). The tasks
     * {@code shutdownNow} takes out of a deque and hands back to its caller were counted as
     * stolen from the worker, by nobody.
     */
    @Test
    void tasksShutdownNowTakesFromADequeAreNotCountedAsStolen() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        CountDownLatch queued = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        pool.execute(() -> {
            for (int i = 0; i < 5; i++) {
                pool.execute(() -> { });       // the first to the LIFO slot, the others to the deque
            }
            queued.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(queued.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.shutdownNow()).hasSize(5);
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        SchedulerStats s = pool.stats();
        long stolenFrom = s.workers().stream().mapToLong(SchedulerStats.WorkerStats::stolenFrom).sum();
        assertThat(s.steals()).isZero();
        assertThat(stolenFrom).as("tasks stolen from equals tasks stolen by: %s", s).isEqualTo(s.steals());
    }
}
