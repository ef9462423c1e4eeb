/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link AsyncRuntime.Builder#driveIo} rejects a driver listed twice with an
 * {@link IllegalArgumentException}. Its message was built with the driver's {@code toString()},
 * user code: one that threw replaced the documented exception with its own, and the caller was
 * never told what was wrong with the list.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DriverListedTwiceNamesNoToStringTest {

    /** A driver whose {@code toString()} throws. */
    static final class Unprintable implements IoDriver {
        @Override
        public void claim() {
        }

        @Override
        public int select(long timeoutNanos) {
            return 0;
        }

        @Override
        public void dispatch() {
        }

        @Override
        public void wakeup() {
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString failed (injected)");
        }
    }

    @Test
    void aDriverListedTwiceIsAnIllegalArgumentEvenIfItsToStringThrows() {
        IoDriver d = new Unprintable();
        AsyncRuntime.Builder b = AsyncRuntime.builder().workers(2);
        assertThatThrownBy(() -> b.driveIo(Arrays.asList(new Unprintable(), d, d)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listed twice")
                .hasMessageContaining("index 2")
                .hasMessageContaining("index 1")
                .hasMessageContaining(Unprintable.class.getName());
    }
}
