/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sources that fail in ways a review of the console played against it: each test failed on the
 * code before its fix (review-before-after.txt of the review).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConsoleAbuseRegressionTest {

    /** An exception that cannot even say what it is. */
    private static final class Unspeakable extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("no message");
        }
    }

    /**
     * The sampler described a failing source by the exception's {@code toString()}; an
     * exception whose message throws escaped the periodic sample from inside its own catch, and
     * a periodic task that throws is never run again: every page froze for good.
     */
    @Test
    void aSourceWhoseExceptionCannotBeDescribedShowsAnErrorAndTheSamplingGoesOn() throws Exception {
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("mute", () -> {
                throw new Unspeakable();
            });
            String snapshot = awaitSample(console, "\"mute\"");
            assertThat(snapshot).as("a sample showing the failing source").contains("\"kind\":\"error\"")
                    .contains("\"name\":\"mute\"").contains("Unspeakable");
            assertThat(awaitNewer(console, snapshot)).as("a later sample").isNotEqualTo(snapshot);
        }
    }

    /**
     * A checked exception thrown where the compiler does not see it (a supplier written in
     * Kotlin, or one that rethrows with a generic trick) was caught by neither the sampler's
     * {@code RuntimeException} nor its {@code Error}: it ended the periodic sample for good.
     */
    @Test
    void aSourceThatThrowsACheckedExceptionShowsItAndTheSamplingGoesOn() throws Exception {
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            Supplier<SchedulerStats> remote = () -> {
                throw ConsoleAbuseRegressionTest.<RuntimeException>sneaky(new IOException("stats server unreachable"));
            };
            console.register("remote", remote);
            String snapshot = awaitSample(console, "\"remote\"");
            assertThat(snapshot).as("a sample showing the failing source").contains("\"kind\":\"error\"")
                    .contains("stats server unreachable");
            assertThat(awaitNewer(console, snapshot)).as("a later sample").isNotEqualTo(snapshot);
        }
    }

    /** Throws {@code t}, checked or not, without declaring it. */
    @SuppressWarnings("unchecked")
    private static <X extends Throwable> X sneaky(Throwable t) throws X {
        throw (X) t;
    }

    /** The latest sample once it contains {@code text}, or the last one seen after 10 s. */
    static String awaitSample(Console console, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String snapshot = console.latest();
        while (!snapshot.contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            snapshot = console.latest();
        }
        return snapshot;
    }

    /** The first sample other than {@code seen}, or {@code seen} after 10 s. */
    static String awaitNewer(Console console, String seen) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String snapshot = console.latest();
        while (snapshot.equals(seen) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            snapshot = console.latest();
        }
        return snapshot;
    }
}
