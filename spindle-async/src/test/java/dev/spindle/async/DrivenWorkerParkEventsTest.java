/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code dev.spindle.WorkerPark} and {@code dev.spindle.WorkerUnpark} promise every sleep of a
 * worker "of any pool or of an async runtime" and every wake-up of one. A runtime whose idle
 * workers drive its timers and I/O ({@link AsyncRuntime.Builder#driveIo}) puts a worker to sleep
 * in a driver's {@code select} rather than on the thread parker that records the events: with one
 * worker, which always holds the timer slot, a recording saw no park and no wake-up at all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DrivenWorkerParkEventsTest {

    @Test
    void aWorkerSleepingInItsDriverIsRecordedAsParkedAndWoken() throws Exception {
        List<RecordedEvent> events = record(() -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).driveIo(List.of()).name("jfr-driven").build()) {
                assertThat(rt.spawn(cx -> Poll.ready(1)).get(10, TimeUnit.SECONDS)).isEqualTo(1);
                awaitAsleep("jfr-driven-worker-0");
                // woken for work from outside: through the driver's wake-up, not LockSupport's
                assertThat(rt.spawn(cx -> Poll.ready(2)).get(10, TimeUnit.SECONDS)).isEqualTo(2);
                awaitAsleep("jfr-driven-worker-0");
            }
        }, "dev.spindle.WorkerPark", "dev.spindle.WorkerUnpark");

        assertThat(named(events, "dev.spindle.WorkerPark")).as("the driver's sleeps").isNotEmpty().allSatisfy(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-driven");
            assertThat(e.getInt("worker")).isZero();
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-driven-worker-0");
        });
        assertThat(named(events, "dev.spindle.WorkerUnpark")).as("the wake-up of the driver").isNotEmpty()
                .allSatisfy(e -> {
                    assertThat(e.getString("scheduler")).isEqualTo("jfr-driven");
                    assertThat(e.getInt("worker")).isZero();
                });
    }

    /** Waits until the thread named {@code name} waits (a worker does only when asleep). */
    private static void awaitAsleep(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals(name)
                        && (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError(name + " never went to sleep");
    }
}
