/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A schedule whose start of the shared timer's thread fails (no native thread left) throws to
 * its caller, which so gets no entry to cancel: the entry must not stay in the heap. It did,
 * holding its waker (the failed task and all it reaches) until its deadline, one more with each
 * schedule while threads stayed short, and woke the finished task if a thread started later.
 */
class TimerStartFailureLeavesNoEntryTest {

    @Test
    void aScheduleWhoseThreadStartFailsLeavesNothingInTheHeap() {
        Timers timers = new Timers(null, loop -> new Thread(loop) {
            @Override
            public synchronized void start() {
                throw new OutOfMemoryError("unable to create native thread (injected)");
            }
        });
        for (int i = 0; i < 100; i++) {
            long inAnHour = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
            assertThatThrownBy(() -> timers.add(inAnHour, () -> { }))
                    .as("the failed start reaches the caller").isInstanceOf(OutOfMemoryError.class);
        }
        assertThat(timers.size()).as("entries nobody can cancel").isZero();
        assertThat(timers.nanosToNext()).as("no deadline left published").isEqualTo(-1);
    }
}
