/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.Spindle;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A spare that retires moves from the pool's idle figures to nowhere in two steps: it leaves the
 * parked stack (or stops searching), then leaves the live count ({@link Spares#tryRetire}). A
 * snapshot taken between the two read it live and neither parked nor searching, so a pool with
 * no task at all reported one active worker. The hook {@link Spares#beforeRetire} holds the
 * spare between the two steps while the snapshot is taken, with the core worker parked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AQuietPoolWhoseSpareRetiresHasNoActiveWorkerTest {

    @Test
    void aSnapshotTakenAsTheSpareRetiresShowsNoActiveWorker() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .spareKeepAlive(Duration.ofMillis(20)).name("retiring-spare").build();
        AtomicBoolean first = new AtomicBoolean(true);
        AtomicReference<SchedulerStats> seen = new AtomicReference<>();
        AtomicReference<Throwable> hookFailed = new AtomicReference<>();
        CountDownLatch taken = new CountDownLatch(1);
        try {
            Spares.beforeRetire = () -> {
                if (!first.compareAndSet(true, false)) {
                    return;
                }
                try {
                    // the pool is quiet once its core worker has parked: nothing runs, nothing is queued
                    FailureTest.waitUntil(() -> pool.idle.parkedCount() == 1);
                    seen.set(pool.stats());
                } catch (Throwable e) {
                    hookFailed.set(e);
                } finally {
                    taken.countDown();
                }
            };
            CountDownLatch release = new CountDownLatch(1);
            Future<Boolean> blocking = pool.submit(
                    () -> Spindle.blocking(() -> release.await(30, TimeUnit.SECONDS)));
            FailureTest.waitUntil(() -> pool.stats().liveWorkers() == 2);
            assertThat(pool.stats().liveWorkers()).as("a spare compensates for the blocked worker").isEqualTo(2);
            release.countDown();
            blocking.get(30, TimeUnit.SECONDS);
            assertThat(taken.await(30, TimeUnit.SECONDS)).as("the spare came to retire").isTrue();
            assertThat(hookFailed.get()).isNull();
            SchedulerStats s = seen.get();
            assertThat(pool.idle.parkedCount()).as("core worker parked").isGreaterThanOrEqualTo(1);
            assertThat(s.liveWorkers()).as("taken as the spare retires (still live)").isEqualTo(2);
            assertThat(s.queued()).as("queued tasks").isZero();
            assertThat(s.activeWorkers()).as("active workers of a quiet pool: " + s).isZero();
        } finally {
            Spares.beforeRetire = null;
            pool.shutdownNow();
        }
    }
}
