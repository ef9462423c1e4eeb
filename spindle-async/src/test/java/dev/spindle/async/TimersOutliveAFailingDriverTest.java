/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The worker that holds a driving runtime's timer slot fires the timers after its driver's
 * {@code select}. A driver whose {@code select} kept throwing (a defect of the driver, or memory
 * that stays exhausted) was reported and paused, as it should be, but the timers were fired
 * only after a {@code select} that returned: no sleep and no timeout of the runtime ever ended,
 * not even the timeout meant to bound a wait on that very driver. The timers do not depend on
 * the driver: they must still fire, late by at most the pause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimersOutliveAFailingDriverTest {

    /** A driver whose every {@code select} throws, after waiting as a select would. */
    static final class BrokenDriver implements IoDriver {
        final AtomicInteger selects = new AtomicInteger();

        @Override
        public void claim() {
        }

        @Override
        public int select(long timeoutNanos) {
            selects.incrementAndGet();
            throw new IllegalStateException("select failed (injected)");
        }

        @Override
        public void dispatch() {
        }

        @Override
        public void wakeup() {
        }
    }

    @Test
    void aSleepEndsOnARuntimeWhoseOnlyDriverKeepsFailingWhileIdle() throws Exception {
        BrokenDriver driver = new BrokenDriver();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).driveIo(List.of(driver)).name("broken-driver").build()) {
            rt.spawn(cx -> {
                Thread.currentThread().setUncaughtExceptionHandler((t, e) -> { });  // the injected failures
                return Poll.ready(null);
            }).get(10, TimeUnit.SECONDS);

            JoinHandle<Void> sleeping = rt.spawn(Async.sleep(Duration.ofMillis(20)));

            assertThat(sleeping.get(20, TimeUnit.SECONDS)).as("the sleep ended").isNull();
            assertThat(driver.selects.get()).as("the driver kept failing meanwhile").isPositive();
        }
    }

    @Test
    void aSleepEndsOnARuntimeWhoseOnlyDriverKeepsFailingWhileEveryWorkerIsBusy() throws Exception {
        BrokenDriver driver = new BrokenDriver();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).driveIo(List.of(driver)).name("broken-driver-busy").build()) {
            rt.spawn(cx -> {
                Thread.currentThread().setUncaughtExceptionHandler((t, e) -> { });
                return Poll.ready(null);
            }).get(10, TimeUnit.SECONDS);

            JoinHandle<Void> sleeping = rt.spawn(Async.sleep(Duration.ofMillis(20)));
            // keeps the only worker busy (it never parks): only its periodic polls serve the timers
            JoinHandle<Void> busy = rt.spawn(cx -> {
                if (sleeping.isDone()) {
                    return Poll.ready(null);
                }
                cx.waker().wake();
                return Poll.pending();
            });

            assertThat(busy.get(20, TimeUnit.SECONDS)).isNull();
            assertThat(sleeping.get(1, TimeUnit.SECONDS)).as("the sleep ended").isNull();
        }
    }
}
