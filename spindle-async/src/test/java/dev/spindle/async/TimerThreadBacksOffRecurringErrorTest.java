/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared timer's thread survives an {@link Error} out of a round of firing and tries again
 * ({@code TimerThreadSurvivesErrorTest}); when the error recurs (memory stays exhausted) it must
 * not retry at once, round after round: it spun at full CPU, reporting the error each time. The
 * injected error recurs here with an entry due, so the thread has no reason to wait but the
 * back-off: it must be seen pausing (TIMED_WAITING) between failed rounds, and fire the entry
 * once the rounds succeed again.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimerThreadBacksOffRecurringErrorTest {

    @Test
    void aRecurringErrorIsRetriedAfterAPauseAndTheTimerFiresOnceItStops() throws Exception {
        AtomicBoolean failing = new AtomicBoolean(true);
        AtomicInteger reported = new AtomicInteger();
        AtomicReference<Thread> thread = new AtomicReference<>();
        CountDownLatch gate = new CountDownLatch(1);
        Timers timers = new Timers(null, loop -> {
            Thread t = new Thread(() -> {
                try {
                    gate.await();              // the entry is in the heap before the first round
                } catch (InterruptedException e) {
                    return;
                }
                loop.run();
            }, "timer-backoff-test");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> reported.incrementAndGet());
            thread.set(t);
            return t;
        }, () -> {
            if (failing.get()) {
                throw new OutOfMemoryError("no room for the due list (injected, recurring)");
            }
        });
        CountDownLatch fired = new CountDownLatch(1);
        timers.add(System.nanoTime() - 1, fired::countDown);
        gate.countDown();

        // The entry is due, so a round never waits on the timer's condition: the only timed wait
        // of the thread is the pause after a failed round. Without it, the thread stays runnable.
        boolean pausing = false;
        try {
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!pausing && System.nanoTime() - giveUp < 0) {
                pausing = reported.get() >= 3 && thread.get().getState() == Thread.State.TIMED_WAITING;
                Thread.sleep(1);
            }
            assertThat(pausing).as("the thread seen pausing between failed rounds (%d reported)", reported.get())
                    .isTrue();
            assertThat(fired.getCount()).as("the entry the failed rounds left in the heap").isEqualTo(1);
        } finally {
            failing.set(false);                // whatever the outcome, the thread stops failing
        }
        assertThat(fired.await(10, TimeUnit.SECONDS)).as("the entry fired once a round succeeded").isTrue();
        assertThat(timers.size()).isZero();
    }
}
