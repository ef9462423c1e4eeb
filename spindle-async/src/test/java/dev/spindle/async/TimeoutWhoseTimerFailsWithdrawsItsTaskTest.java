/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A timeout polls its task first, then schedules its timer. When the schedule throws (the shared
 * timer's thread cannot be started: no native thread left), the timeout's poll throws, and a
 * task whose poll throws is finished: nobody cancels it (the runtime cancels only cancelled,
 * shut-down and null-returning tasks, see {@link Cancellable}). The task under the timeout was
 * left pending where it waited: a receive stayed in the channel's wait queue, the next value
 * sent was handed to it, and nobody ever received that value.
 */
class TimeoutWhoseTimerFailsWithdrawsItsTaskTest {

    @Test
    void aReceiveUnderATimeoutWhoseTimerCannotStartDoesNotSwallowTheNextValue() throws Exception {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        AsyncTask<String> bounded = Async.timeout(ch.receive(), Duration.ofHours(1));

        Field threadField = Timers.class.getDeclaredField("thread");
        Field threadsField = Timers.class.getDeclaredField("threads");
        threadField.setAccessible(true);
        threadsField.setAccessible(true);
        Object runningThread = threadField.get(Timers.SHARED);
        Object factory = threadsField.get(Timers.SHARED);
        Function<Runnable, Thread> failing = loop -> new Thread(loop) {
            @Override
            public synchronized void start() {
                throw new OutOfMemoryError("unable to create native thread (injected)");
            }
        };
        threadField.set(Timers.SHARED, null);
        threadsField.set(Timers.SHARED, failing);
        try {
            assertThatThrownBy(() -> bounded.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        } finally {
            threadsField.set(Timers.SHARED, factory);
            threadField.set(Timers.SHARED, runningThread);
        }

        // the timeout failed; its receive must not still wait in the channel
        assertThat(ch.send("next").poll(cx).isReady()).isTrue();
        Poll<String> p = ch.receive().poll(cx);
        assertThat(p.isReady()).as("the value sent after the failed timeout is receivable").isTrue();
        assertThat(p.value()).isEqualTo("next");
    }
}
