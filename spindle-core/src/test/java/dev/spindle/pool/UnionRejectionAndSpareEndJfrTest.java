/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Spindle;
import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two gaps in the core's events that a consumer of a recording could not see through. A union
 * refused tasks after its shutdown without a {@code RejectedSubmit} event, which its pools and the
 * async runtime record for each refusal. And a spare worker that ended with its pool (here by
 * {@code shutdownNow}) recorded no {@code SpareRetire}, so starts minus retires counted spares
 * that were gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnionRejectionAndSpareEndJfrTest {

    @Test
    void aUnionRecordsTheTasksItRefusesAfterShutdown() throws Exception {
        WorkSharingPool member = WorkSharingPool.builder().workers(1).name("union-member").build();
        SchedulerUnion union = SchedulerUnion.owning(member);
        union.shutdown();
        List<RecordedEvent> events = record(() -> assertThatThrownBy(() -> union.execute(() -> { }))
                .isInstanceOf(RejectedExecutionException.class), "dev.spindle.RejectedSubmit");
        assertThat(union.awaitTermination(1, TimeUnit.MINUTES)).isTrue();

        assertThat(named(events, "dev.spindle.RejectedSubmit")).singleElement().satisfies(e -> {
            assertThat(e.getString("scheduler")).isEqualTo(union.toString());
            assertThat(e.getString("reason")).isEqualTo(union + " is shut down");
            assertThat(e.getThread().getJavaName()).isEqualTo(Thread.currentThread().getName());
            assertThat(e.getStackTrace().getFrames()).anySatisfy(f -> assertThat(f.getMethod().getType().getName())
                    .isEqualTo(UnionRejectionAndSpareEndJfrTest.class.getName()));
        });
    }

    @Test
    void aSpareEndedByShutdownNowRecordsItsEndWithTheReason() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<RecordedEvent> events = record(() -> {
            WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("jfr-spare-stop")
                    .maxSpareWorkers(1).spareKeepAlive(Duration.ofMinutes(10)).build();
            try {
                // blocked until released, shutdownNow's interrupt or not: the spare never has
                // excess to retire on while the pool stops
                pool.execute(() -> Spindle.blocking(() -> {
                    Await.ignoringInterrupts(release);
                    return null;
                }));
                CountDownLatch ranBeside = new CountDownLatch(1);
                pool.execute(ranBeside::countDown);      // run by the spare
                assertThat(ranBeside.await(30, TimeUnit.SECONDS)).isTrue();
                pool.shutdownNow();
                awaitInStopPhase("jfr-spare-stop-worker-1");
            } finally {
                release.countDown();
            }
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }, "dev.spindle.SpareStart", "dev.spindle.SpareRetire");

        assertThat(named(events, "dev.spindle.SpareStart")).hasSize(1);
        assertThat(named(events, "dev.spindle.SpareRetire")).singleElement().satisfies(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-spare-stop");
            assertThat(e.getInt("worker")).isEqualTo(1);
            assertThat(e.getString("reason")).isEqualTo("stopped");
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-spare-stop-worker-1");
        });
    }

    @Test
    void everySpareStartedEndsWithAnEventOnceItsPoolHasClosed() throws Exception {
        List<RecordedEvent> events = record(() -> {
            WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("jfr-spare-close")
                    .maxSpareWorkers(2).spareKeepAlive(Duration.ofMinutes(10)).build();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch bothBlocked = new CountDownLatch(2);
            try {
                for (int i = 0; i < 2; i++) {    // the worker, then the first spare, block
                    pool.execute(() -> Spindle.blocking(() -> {
                        bothBlocked.countDown();
                        Await.ignoringInterrupts(release);
                        return null;
                    }));
                }
                assertThat(bothBlocked.await(30, TimeUnit.SECONDS)).isTrue();
                pool.shutdown();
            } finally {
                release.countDown();
            }
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }, "dev.spindle.SpareStart", "dev.spindle.SpareRetire");

        List<RecordedEvent> started = named(events, "dev.spindle.SpareStart");
        assertThat(started).isNotEmpty();
        // whether each retired or ended with the pool is a race of theirs; that each ends is not
        assertThat(named(events, "dev.spindle.SpareRetire")).hasSameSizeAs(started)
                .allSatisfy(e -> assertThat(e.getString("reason")).isIn("retired", "shutdown"));
    }

    /**
     * Waits (bounded) until the thread named {@code name} waits in its pool's stop phase, past
     * the park in which a spare retires: nothing else tells when a worker has seen the stop.
     */
    private static void awaitInStopPhase(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            for (var e : Thread.getAllStackTraces().entrySet()) {
                if (e.getKey().getName().equals(name) && Arrays.stream(e.getValue())
                        .anyMatch(f -> f.getMethodName().equals("stopPhase"))) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError(name + " did not reach the stop phase");
    }
}
