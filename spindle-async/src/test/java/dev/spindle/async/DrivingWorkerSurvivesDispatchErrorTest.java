/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A runtime whose idle workers drive its I/O ({@link AsyncRuntime.Builder#driveIo}) dispatches
 * a driver's events on a worker. An {@link Error} out of a driver's {@code dispatch} (or
 * {@code select}) went out of that worker's park and ended its loop, and a worker that dies
 * shuts the whole runtime down: the task waiting for the event failed with the error and the
 * runtime accepted nothing more. The worker must report it and drive the driver again, so the
 * event it did not dispatch is still delivered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DrivingWorkerSurvivesDispatchErrorTest {

    /**
     * A level-triggered driver of one event: once {@link #fire}d, {@code select} reports it until
     * a {@code dispatch} wakes its waiter. The first {@code failures} dispatches (or selects)
     * throw instead, as one finding no memory left would.
     */
    static final class FlakyDriver implements IoDriver {
        final AtomicInteger dispatchFailures;
        final AtomicInteger selectFailures;
        final AtomicBoolean ready = new AtomicBoolean();
        final AtomicBoolean delivered = new AtomicBoolean();
        final AtomicReference<Waker> waiter = new AtomicReference<>();
        private final DrivingParker.TimerSleep sleep = new DrivingParker.TimerSleep();

        FlakyDriver(int dispatchFailures, int selectFailures) {
            this.dispatchFailures = new AtomicInteger(dispatchFailures);
            this.selectFailures = new AtomicInteger(selectFailures);
        }

        @Override
        public void claim() {
        }

        @Override
        public int select(long timeoutNanos) {
            if (ready.get() && selectFailures.getAndDecrement() > 0) {
                throw new OutOfMemoryError("select failed (injected)");
            }
            if (!ready.get()) {
                sleep.select(timeoutNanos);    // sticky: a fire() before it ends it at once
            }
            return ready.get() ? 1 : 0;
        }

        @Override
        public void dispatch() {
            if (dispatchFailures.getAndDecrement() > 0) {
                throw new OutOfMemoryError("dispatch failed (injected)");
            }
            if (ready.getAndSet(false)) {
                delivered.set(true);
                Waker w = waiter.getAndSet(null);
                if (w != null) {
                    w.wake();
                }
            }
        }

        @Override
        public void wakeup() {
            sleep.wakeup();
        }

        void fire() {
            ready.set(true);
            wakeup();
        }
    }

    @Test
    void anErrorOutOfDispatchOnADrivingWorkerIsReportedAndTheEventStillDelivered() throws Exception {
        checkSurvives(new FlakyDriver(3, 0), "dispatch failed");
    }

    @Test
    void anErrorOutOfSelectOnADrivingWorkerIsReportedAndTheEventStillDelivered() throws Exception {
        checkSurvives(new FlakyDriver(0, 3), "select failed");
    }

    private static void checkSurvives(FlakyDriver driver, String message) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).driveIo(List.of(driver)).name("dispatch-error-driven").build()) {
            List<Throwable> reported = new CopyOnWriteArrayList<>();
            rt.spawn(cx -> {
                Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.add(e));
                return Poll.ready(null);
            }).get(10, TimeUnit.SECONDS);

            JoinHandle<String> waiting = rt.spawn(cx -> {
                if (driver.delivered.get()) {
                    return Poll.ready("event");
                }
                driver.waiter.set(cx.waker());
                if (driver.delivered.get()) {
                    return Poll.ready("event");
                }
                if (!driver.ready.get()) {
                    driver.fire();             // the worker finds it when it parks after this poll
                }
                return Poll.pending();
            });

            assertThat(waiting.get(10, TimeUnit.SECONDS)).as("the event was delivered by a later turn").isEqualTo("event");
            assertThat(rt.isShutdown()).as("the runtime goes on").isFalse();
            assertThat(rt.spawn(cx -> Poll.ready(7)).get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(reported).hasSize(3).allSatisfy(e -> assertThat(e)
                    .isInstanceOf(OutOfMemoryError.class).hasMessageContaining(message));
        }
    }
}
