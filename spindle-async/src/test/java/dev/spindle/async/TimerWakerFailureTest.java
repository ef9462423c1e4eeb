/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A waker that throws when its timer fires is reported, not swallowed, and the others still fire. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimerWakerFailureTest {

    @Test
    void aThrowingWakerGoesToTheFiringThreadsHandlerAndTheOtherEntriesStillFire() throws Exception {
        Timers timers = new Timers(() -> { });
        AtomicInteger woken = new AtomicInteger();
        long past = System.nanoTime() - 1;
        timers.add(past, woken::incrementAndGet);
        timers.add(past, () -> {
            throw new IllegalStateException("waker failed");
        });
        timers.add(past, woken::incrementAndGet);
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread firer = new Thread(timers::fireDue, "fires-timers");
        firer.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        firer.start();
        firer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(firer.isAlive()).isFalse();
        assertThat(woken.get()).as("the entries around the failing one fired").isEqualTo(2);
        assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                .isInstanceOf(IllegalStateException.class).hasMessage("waker failed"));
        assertThat(timers.size()).isZero();
    }

    /**
     * A firing thread whose own uncaught-exception handler throws too (a logging handler that
     * fails, say) still fires the other entries and survives: before, the handler's exception
     * ended the thread, which for the shared timer meant that no timer of the JVM fired again.
     */
    @Test
    void aThrowingWakerReportedToAThrowingHandlerDoesNotEndTheFiringThread() throws Exception {
        Timers timers = new Timers(() -> { });
        AtomicInteger woken = new AtomicInteger();
        long past = System.nanoTime() - 1;
        timers.add(past, () -> {
            throw new IllegalStateException("waker failed");
        });
        timers.add(past, woken::incrementAndGet);
        AtomicInteger afterwards = new AtomicInteger();
        Thread firer = new Thread(() -> {
            timers.fireDue();
            afterwards.incrementAndGet();      // the thread goes on after the firing
        }, "fires-timers");
        firer.setUncaughtExceptionHandler((t, e) -> {
            throw new IllegalStateException("the handler fails too");
        });
        firer.start();
        firer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(firer.isAlive()).isFalse();
        assertThat(woken.get()).as("the entry after the failing one fired").isEqualTo(1);
        assertThat(afterwards.get()).as("the firing thread went on").isEqualTo(1);
    }
}
