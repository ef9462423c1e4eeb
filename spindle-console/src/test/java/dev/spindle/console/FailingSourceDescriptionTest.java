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
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("blank", () -> {
                throw new Blank();
            });
            String snapshot = ConsoleAbuseRegressionTest.awaitSample(console, "\"blank\"");
            assertThat(snapshot).as("a sample showing the failing source").contains("\"kind\":\"error\"")
                    .contains("\"name\":\"blank\"").contains("Blank");
            assertThat(ConsoleAbuseRegressionTest.awaitNewer(console, snapshot)).as("a later sample").isNotEqualTo(snapshot);
        }
    }
}
