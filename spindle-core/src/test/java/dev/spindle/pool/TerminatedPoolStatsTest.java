/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A terminated pool has no worker thread left, so its snapshot must report no live worker. Every
 * pool reported its worker count instead (the length of its worker array; a work-stealing pool
 * its core workers, which never retire), so the console, the command-line demo and any other
 * reader of {@code stats()} showed a closed pool's workers as live for as long as it was
 * reachable.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TerminatedPoolStatsTest {

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aPoolShutDownReportsNoLiveWorkerOnceTerminated(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.stats().liveWorkers()).as("%s while it runs", kind).isEqualTo(2);

        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("%s", kind).isTrue();

        assertNoWorkerLeft(kind, pool.stats());
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aPoolStoppedWhileATaskRanReportsNoLiveWorkerOnceTerminated(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            try {
                never.await();                 // until shutdownNow's interrupt
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("%s", kind).isTrue();

        assertNoWorkerLeft(kind, pool.stats());
    }

    private static void assertNoWorkerLeft(PoolKind kind, SchedulerStats s) {
        assertThat(s.liveWorkers()).as("%s: live workers of a terminated pool: %s", kind, s).isZero();
        assertThat(s.activeWorkers()).as("%s: active", kind).isZero();
        assertThat(s.parkedWorkers()).as("%s: parked", kind).isZero();
        assertThat(s.searchingWorkers()).as("%s: searching", kind).isZero();
        assertThat(s.blockedWorkers()).as("%s: blocked", kind).isZero();
        assertThat(s.parallelism()).as("%s: the configured target stays", kind).isEqualTo(2);
        assertThat(s.workers()).as("%s: the workers' counters stay", kind).hasSize(2);
        assertThat(s.completed()).as("%s: the task counted", kind).isGreaterThanOrEqualTo(1);
    }
}
