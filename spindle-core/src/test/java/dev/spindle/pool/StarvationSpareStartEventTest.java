/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Spindle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code dev.spindle.SpareStart} event says its thread is the worker that blocked, and its stack
 * trace is there to show the blocking call. A spare the starvation watch starts (every worker
 * waits where the pool cannot see it, a latch here) is recorded on the watch's starter thread,
 * whose stack shows nothing of the wait: the event must say which kind of start it is, or a
 * reader takes that thread for the one that blocked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationSpareStartEventTest {

    @Test
    void aSpareStartedForStarvationIsToldApartFromOneForABlockingSection() throws Exception {
        List<RecordedEvent> events = record(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("jfr-starved")
                    .maxSpareWorkers(1).spareKeepAlive(Duration.ofMillis(50)).build()) {
                CountDownLatch gate = new CountDownLatch(1);
                CountDownLatch waited = new CountDownLatch(1);
                pool.execute(() -> {
                    try {
                        gate.await();                  // untimed, unseen by the pool: WAITING
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    waited.countDown();
                });
                pool.execute(gate::countDown);          // queued behind it: only a spare can run it
                assertThat(waited.await(20, TimeUnit.SECONDS)).as("the starvation watch's spare ran").isTrue();
            }
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("jfr-blocked")
                    .maxSpareWorkers(1).spareKeepAlive(Duration.ofMillis(50)).build()) {
                CountDownLatch release = new CountDownLatch(1);
                var blocked = pool.spawn(() -> Spindle.blocking(() -> release.await(10, TimeUnit.SECONDS)));
                CountDownLatch ranBeside = new CountDownLatch(1);
                pool.execute(ranBeside::countDown);
                assertThat(ranBeside.await(10, TimeUnit.SECONDS)).isTrue();
                release.countDown();
                assertThat(blocked.join()).isTrue();
            }
        }, "dev.spindle.SpareStart");

        List<RecordedEvent> starts = named(events, "dev.spindle.SpareStart");
        assertThat(starts).filteredOn(e -> e.getString("scheduler").equals("jfr-starved")).isNotEmpty()
                .allSatisfy(e -> {
                    assertThat(e.getThread().getJavaName()).as("recorded on").isNotEqualTo("jfr-starved-worker-0");
                    assertThat(e.hasField("starvation")).as("the event says what started the spare").isTrue();
                    assertThat(e.getBoolean("starvation")).as("started by the starvation watch").isTrue();
                });
        assertThat(starts).filteredOn(e -> e.getString("scheduler").equals("jfr-blocked")).singleElement()
                .satisfies(e -> {
                    assertThat(e.getThread().getJavaName()).isEqualTo("jfr-blocked-worker-0");
                    assertThat(e.hasField("starvation")).as("the event says what started the spare").isTrue();
                    assertThat(e.getBoolean("starvation")).as("started for a blocking section").isFalse();
                });
    }
}
