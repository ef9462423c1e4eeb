/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A sleep, a timeout, {@code all} or {@code select} polled by hand with a {@link Context} whose
 * {@link Context#waker()} is {@code null} (a broken hand-written context, a mock's default
 * answer): as a channel operation, a semaphore acquire and a handle do, the poll must throw
 * {@link NullPointerException} naming the waker, and leave nothing registered. Before, the timer
 * entry kept the null waker (which the timer skips) and the combinators stored it, so the task
 * stayed pending for good, nobody told.
 */
@Timeout(60)
class NullWakerCombinatorTest {

    private static final Context NO_WAKER = new Context() {
        @Override
        public Waker waker() {
            return null;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    };

    @Test
    void aSleepPolledWithANullWakerThrowsAndSchedulesNothing() {
        int before = Timers.pending();
        AsyncTask<Void> s = Async.sleep(Duration.ofHours(1));
        assertThatThrownBy(() -> s.poll(NO_WAKER))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
        assertThat(Timers.pending()).as("timer entries").isEqualTo(before);
    }

    @Test
    void aTimeoutPolledWithANullWakerThrowsAndSchedulesNothing() {
        int before = Timers.pending();
        // a task that keeps no waker (its own wake comes some other way): only the timeout asks
        AsyncTask<Integer> t = Async.timeout(cx -> Poll.pending(), Duration.ofHours(1));
        assertThatThrownBy(() -> t.poll(NO_WAKER))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
        assertThat(Timers.pending()).as("timer entries").isEqualTo(before);
    }

    @Test
    void aStagePolledWithANullWakerThrows() {
        AsyncTask<Integer> t = Async.from(new java.util.concurrent.CompletableFuture<>());
        assertThatThrownBy(() -> t.poll(NO_WAKER))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
    }

    @Test
    void allPolledWithANullWakerThrowsAndLeavesItsChildrenUnregistered() {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        AsyncTask<List<Integer>> all = Async.all(List.of(p, Async.ready(1)));
        assertThatThrownBy(() -> all.poll(NO_WAKER))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
        assertThat(p.waiterCount()).as("waiters on the promise").isZero();
    }

    @Test
    void selectPolledWithANullWakerThrowsAndLeavesItsChildrenUnregistered() {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        AsyncTask<Async.Selected<Integer>> sel = Async.select(List.of(p));
        assertThatThrownBy(() -> sel.poll(NO_WAKER))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
        assertThat(p.waiterCount()).as("waiters on the promise").isZero();
    }
}
