/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The shared timer's thread starts with the first timer. When that start failed (no native
 * thread left for the moment: an {@code OutOfMemoryError}), the timer still recorded the thread
 * as running, so no later timer of the JVM ever fired: every sleep and timeout waited for good.
 * Found by review (session 40).
 */
class TimerStartFailureRegressionTest {

    @Test
    void aTimerThreadThatFailedToStartIsStartedByTheNextTimer() throws Exception {
        AtomicInteger made = new AtomicInteger();
        Timers timers = new Timers(null, loop -> {
            if (made.getAndIncrement() == 0) {
                return new Thread(loop) {
                    @Override
                    public synchronized void start() {
                        throw new OutOfMemoryError("unable to create native thread (injected)");
                    }
                };
            }
            Thread t = new Thread(loop, "timer-start-failure-test");
            t.setDaemon(true);
            return t;
        });
        long now = System.nanoTime();
        assertThatThrownBy(() -> timers.add(now, () -> { }))
                .as("the failed start reaches the caller").isInstanceOf(OutOfMemoryError.class);
        CountDownLatch fired = new CountDownLatch(1);
        timers.add(System.nanoTime(), fired::countDown);
        assertThat(fired.await(10, TimeUnit.SECONDS)).as("a timer added after the failed start fires").isTrue();
        assertThat(made.get()).as("threads made").isEqualTo(2);
    }
}
