/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import dev.spindle.async.io.Reactor;
import dev.spindle.async.io.ReactorGroup;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 28, time arithmetic and extreme arguments), each test failing
 * before its fix.
 */
class TimeArithmeticRegressionTest {

    /** Spins until {@link System#nanoTime()} has moved past {@code t}. */
    private static void afterNanoTime(long t) {
        while (System.nanoTime() - t <= 0) {
            Thread.onSpinWait();
        }
    }

    /** A task that is never ready. */
    private static final class Never implements AsyncTask<Integer> {
        @Override
        public Poll<Integer> poll(Context cx) {
            return Poll.pending();
        }
    }

    /**
     * {@code sleep(Duration.ofNanos(Long.MIN_VALUE))}: toNanos() fits, so the deadline is
     * {@code now + Long.MIN_VALUE}, which a nanosecond later lies 2^63 ns away and compares, by
     * the overflowed difference, as almost 292 years ahead: the "ready at once" sleep never ends.
     */
    @Test
    void aSleepOfTheMostNegativeDurationIsReadyAtOnce() {
        long t = System.nanoTime();
        AsyncTask<Void> sleep = Async.sleep(Duration.ofNanos(Long.MIN_VALUE));
        afterNanoTime(t);
        afterNanoTime(System.nanoTime());
        HandContext cx = new HandContext();
        Poll<Void> p = sleep.poll(cx);
        Async.cancel(sleep);                    // no 73-year timer entry left behind on failure
        assertThat(p.isReady()).as("a sleep of Duration.ofNanos(Long.MIN_VALUE), polled").isTrue();
    }

    /** The same for {@code timeout}: a hugely negative duration must give up at the first poll. */
    @Test
    void aTimeoutOfAHugelyNegativeDurationGivesUpAtTheFirstPoll() {
        AsyncTask<Integer> bounded = Async.timeout(new Never(), Duration.ofNanos(Long.MIN_VALUE + 1));
        afterNanoTime(System.nanoTime());
        afterNanoTime(System.nanoTime());
        HandContext cx = new HandContext();
        try {
            assertThatThrownBy(() -> bounded.poll(cx))
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
        } finally {
            Async.cancel(bounded);
        }
    }

    /**
     * A driven reactor's {@code select(timeoutNanos)} rounds up to milliseconds with
     * {@code timeoutNanos + 999_999}, which overflows for a timeout within a millisecond of
     * {@link Long#MAX_VALUE} (a spare's saturated keep-alive): the negative quotient became a
     * 1 ms select, so the "wait about 292 years" returned at once, and a driving worker woke up
     * every millisecond.
     */
    @Test
    void aDrivenReactorsSelectWithTheLongestTimeoutWaitsForItsWakeUp() throws Exception {
        try (ReactorGroup group = ReactorGroup.openDriven(1)) {
            Reactor r = group.reactors().get(0);
            r.claim();
            AtomicInteger returns = new AtomicInteger();
            Thread selecting = new Thread(() -> {
                r.select(Long.MAX_VALUE);
                returns.incrementAndGet();
            }, "select-forever");
            selecting.start();
            selecting.join(500);                // a failure bound: it must not return without a wake-up
            int early = returns.get();
            r.wakeup();
            selecting.join(5_000);
            assertThat(early).as("select(Long.MAX_VALUE) returned without a wake-up or event").isZero();
            assertThat(returns.get()).as("returned once woken").isEqualTo(1);
        }
    }
    /**
     * {@code JoinHandle.get(Long.MIN_VALUE, NANOSECONDS)} (what {@code TimeUnit} saturates any
     * hugely negative timeout to): the deadline {@code now + Long.MIN_VALUE} lies 2^63 ns away, so
     * a nanosecond later the difference it is tested by overflows to almost 292 years ahead, and
     * the get parked until the task ended instead of timing out at once.
     */
    @Test
    void aJoinHandlesGetWithTheMostNegativeTimeoutTimesOutAtOnce() throws Exception {
        AsyncPromise<Integer> never = new AsyncPromise<>();   // a JoinHandle that nothing completes
        JoinHandle<Integer> handle = never;
        {
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread getter = new Thread(() -> {
                try {
                    outcome.set(handle.get(Long.MIN_VALUE, TimeUnit.NANOSECONDS));
                } catch (Exception e) {
                    outcome.set(e);
                }
            }, "get-most-negative");
            getter.start();
            getter.join(3_000);                 // a failure bound only
            never.complete(1);                  // ends a get left waiting
            getter.join(3_000);
            assertThat(outcome.get()).as("get(Long.MIN_VALUE, NANOSECONDS) on a task not done")
                    .isInstanceOf(TimeoutException.class);
        }
    }
}
