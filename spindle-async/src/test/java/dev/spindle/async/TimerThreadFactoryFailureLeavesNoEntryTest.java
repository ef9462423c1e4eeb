/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A schedule that finds no shared timer thread makes one before it starts it, and making it can
 * fail as starting it can (the {@code Thread} object, its name, no memory left). The caller then
 * gets the error and no entry to cancel, so the entry must not stay in the heap: only the start
 * was inside the clean-up, and an entry left by a failed making held its waker (the failed task
 * and all it reaches) until its deadline, one more with each schedule while memory stayed short,
 * and woke the finished task if a thread was made later.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimerThreadFactoryFailureLeavesNoEntryTest {

    @Test
    void aScheduleWhoseThreadCannotBeMadeLeavesNothingInTheHeap() throws Exception {
        AtomicBoolean fail = new AtomicBoolean(true);
        Timers timers = new Timers(null, loop -> {
            if (fail.get()) {
                throw new OutOfMemoryError("no room for the timer thread (injected)");
            }
            Thread t = new Thread(loop, "timer-factory-failure-test");
            t.setDaemon(true);
            return t;
        });
        AtomicBoolean wokenAfterFailure = new AtomicBoolean();
        for (int i = 0; i < 100; i++) {
            long soon = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            assertThatThrownBy(() -> timers.add(soon, () -> wokenAfterFailure.set(true)))
                    .as("the failed making reaches the caller").isInstanceOf(OutOfMemoryError.class);
        }
        assertThat(timers.size()).as("entries nobody can cancel").isZero();
        assertThat(timers.nanosToNext()).as("no deadline left published").isEqualTo(-1);

        // once a thread can be made, timers fire again, and none of the failed schedules' wakers
        fail.set(false);
        CountDownLatch later = new CountDownLatch(1);
        timers.add(System.nanoTime(), later::countDown);
        assertThat(later.await(10, TimeUnit.SECONDS)).as("a timer scheduled once a thread could be made").isTrue();
        assertThat(timers.size()).isZero();
        assertThat(wokenAfterFailure).as("a failed schedule's waker woken").isFalse();
    }
}
