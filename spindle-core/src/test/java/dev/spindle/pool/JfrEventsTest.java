/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Spindle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The core's flight recorder events: each fires, with its fields, where the pools act. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JfrEventsTest {

    @Test
    void parkedWorkersReportEachSleepAndWhoWokeThem() throws Exception {
        List<RecordedEvent> events = record(() -> {
            WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("jfr-park").build();
            awaitParked(pool, 2);                          // so that the submission below wakes one
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);                  // from outside: wakes a parked worker
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }, "dev.spindle.WorkerPark", "dev.spindle.WorkerUnpark");

        List<RecordedEvent> parks = named(events, "dev.spindle.WorkerPark");
        assertThat(parks).isNotEmpty().allSatisfy(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-park");
            assertThat(e.getInt("worker")).isBetween(0, 1);
            // 0 for a sleep until woken; the watcher's timed looks while its peer is awake
            assertThat(e.getLong("timeout")).isBetween(0L, Worker.WATCH_SLEEP_CAP_NANOS);
            assertThat(e.getDuration()).isPositive();
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-park-worker-" + e.getInt("worker"));
        });
        assertThat(named(events, "dev.spindle.WorkerUnpark")).isNotEmpty()
                .allSatisfy(e -> assertThat(e.getString("scheduler")).isEqualTo("jfr-park"))
                .anySatisfy(e -> assertThat(e.getThread().getJavaName()).isEqualTo(Thread.currentThread().getName()));
    }

    @Test
    void aWorkerStealingFromABusyPeerReportsTheBatch() throws Exception {
        List<RecordedEvent> events = record(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("jfr-steal").build()) {
                CountDownLatch ran = new CountDownLatch(8);
                pool.invoke(() -> {
                    for (int i = 0; i < 8; i++) {
                        pool.execute(ran::countDown);      // to this worker's deque
                    }
                    // this worker stays busy until the peer has stolen and run every task
                    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
                    return null;
                });
            }
        }, "dev.spindle.StealBatch");

        assertThat(named(events, "dev.spindle.StealBatch")).isNotEmpty().allSatisfy(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-steal");
            assertThat(e.getInt("thief")).isBetween(0, 1).isNotEqualTo(e.getInt("victim"));
            assertThat(e.getInt("victim")).isBetween(0, 1);
            assertThat(e.getInt("tasks")).isBetween(1, 8);
        });
    }

    @Test
    void aBlockingSectionStartsASpareThatRetiresWhenNoLongerNeeded() throws Exception {
        List<RecordedEvent> events = record(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("jfr-spare")
                    .maxSpareWorkers(1).spareKeepAlive(Duration.ofMillis(50)).build()) {
                CountDownLatch release = new CountDownLatch(1);
                var blocked = pool.spawn(() -> Spindle.blocking(() -> release.await(10, TimeUnit.SECONDS)));
                CountDownLatch ranBeside = new CountDownLatch(1);
                pool.execute(ranBeside::countDown);        // run by the spare
                assertThat(ranBeside.await(10, TimeUnit.SECONDS)).isTrue();
                release.countDown();
                assertThat(blocked.join()).isTrue();
                awaitLive(pool, 1);                        // the spare retires once idle
            }
        }, "dev.spindle.SpareStart", "dev.spindle.SpareRetire");

        assertThat(named(events, "dev.spindle.SpareStart")).singleElement().satisfies(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-spare");
            assertThat(e.getInt("worker")).isEqualTo(1);
            assertThat(e.getInt("live")).isEqualTo(2);
            assertThat(e.getInt("blocked")).isEqualTo(1);
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-spare-worker-0"); // the one that blocked
            assertThat(e.getStackTrace().getFrames()).anySatisfy(f ->
                    assertThat(f.getMethod().getName()).isEqualTo("blocking"));
        });
        assertThat(named(events, "dev.spindle.SpareRetire")).singleElement().satisfies(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-spare");
            assertThat(e.getInt("worker")).isEqualTo(1);
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-spare-worker-1");
            assertThat(e.getString("reason")).isEqualTo("retired");
        });
    }

    @Test
    void aTaskRefusedAfterShutdownIsRecordedWithItsSubmitter() throws Exception {
        List<RecordedEvent> events = record(() -> {
            for (PoolKind kind : PoolKind.values()) {
                PoolCore pool = kind.create(1);
                pool.shutdown();
                assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
            }
        }, "dev.spindle.RejectedSubmit");

        List<RecordedEvent> rejected = named(events, "dev.spindle.RejectedSubmit");
        assertThat(rejected).hasSize(PoolKind.values().length).allSatisfy(e -> {
            assertThat(e.getString("reason")).isEqualTo("pool " + e.getString("scheduler") + " is shut down");
            assertThat(e.getThread().getJavaName()).isEqualTo(Thread.currentThread().getName());
            assertThat(e.getStackTrace().getFrames()).anySatisfy(f ->
                    assertThat(f.getMethod().getType().getName()).isEqualTo(JfrEventsTest.class.getName()));
        });
    }

    private static void awaitParked(WorkStealingPool pool, int parked) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.shared.idle.parkedCount() < parked && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(pool.shared.idle.parkedCount()).isEqualTo(parked);
    }

    private static void awaitLive(WorkStealingPool pool, int live) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.shared.spares.live() > live && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(pool.shared.spares.live()).isEqualTo(live);
    }
}
