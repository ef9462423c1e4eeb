/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How the sampler describes a source that fails: whatever the exception says of itself, sampling goes on. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FailingSourceDescriptionTest {

    /**
     * An exception whose {@code toString()} is its message, which it has none of: a common
     * override, and it returns {@code null}.
     */
    private static final class Blank extends RuntimeException {
        @Override
        public String toString() {
            return getMessage();
        }
    }

    /**
     * The sampler described a failing source by {@code String.valueOf(e)}, which returns what
     * {@code toString()} returns, {@code null} included; cutting that to length threw a
     * {@code NullPointerException} out of the sampler's own catch, and a periodic task that
     * throws is never run again: no sample was ever taken, and every page stayed empty for good.
     */
    @Test
    void aSourceWhoseExceptionDescribesItselfAsNullShowsAnErrorAndTheSamplingGoesOn() throws Exception {
        try (Console console = Console.builder().interval(Duration.ofMillis(50)).start()) {
            console.register("blank", () -> {
                throw new Blank();
            });
            String snapshot = awaitSample(console, "\"blank\"");
            assertThat(snapshot).as("a sample showing the failing source").contains("\"kind\":\"error\"")
                    .contains("\"name\":\"blank\"").contains("Blank");
            assertThat(awaitNewer(console, snapshot)).as("a later sample").isNotEqualTo(snapshot);
        }
    }

    /** The latest sample once it contains {@code text}, or the last one seen after 10 s. */
    private static String awaitSample(Console console, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String snapshot = console.latest();
        while (!snapshot.contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            snapshot = console.latest();
        }
        return snapshot;
    }

    /** The first sample other than {@code seen}, or {@code seen} after 10 s. */
    private static String awaitNewer(Console console, String seen) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String snapshot = console.latest();
        while (snapshot.equals(seen) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            snapshot = console.latest();
        }
        return snapshot;
    }
}
