/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared timer's thread outlives an {@link Error} thrown by a round of firing itself (not by
 * a waker, whose throw {@code fire} catches): the growth of the list of due entries finding no
 * memory left, injected here through the timer's {@code taking} hook. Before, the error ended
 * the thread, which stayed recorded as running: the entry already taken out of the heap was never
 * woken, and neither was any timer scheduled afterwards (every sleep and timeout of the JVM).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimerThreadSurvivesErrorTest {

    @Test
    void anErrorWhileTakingDueEntriesIsReportedAndEveryTimerStillFires() throws Exception {
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Timers timers = new Timers(null, loop -> {
            Thread t = new Thread(() -> {
                try {
                    gate.await();              // both entries are in the heap before the first round
                } catch (InterruptedException e) {
                    return;
                }
                loop.run();
            }, "timer-error-test");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> reported.add(e));
            return t;
        }, () -> {
            if (taken.incrementAndGet() == 2) {
                throw new OutOfMemoryError("no room for the due list (injected)");
            }
        });
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(1);
        long past = System.nanoTime() - 1;
        timers.add(past, first::countDown);
        timers.add(past, second::countDown);
        gate.countDown();

        assertThat(first.await(10, TimeUnit.SECONDS))
                .as("the entry taken before the error fired").isTrue();
        assertThat(second.await(10, TimeUnit.SECONDS))
                .as("the entry the error left in the heap fired in a later round").isTrue();
        CountDownLatch later = new CountDownLatch(1);
        timers.add(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20), later::countDown);
        assertThat(later.await(10, TimeUnit.SECONDS))
                .as("a timer scheduled after the error fired: the thread went on").isTrue();
        assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("injected"));
        assertThat(timers.size()).isZero();
    }
}
