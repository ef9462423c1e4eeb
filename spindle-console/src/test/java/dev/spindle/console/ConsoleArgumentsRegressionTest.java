/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 28, extreme arguments), each test failing before its fix: the
 * builder's range checks called {@code toMillis()} first, which throws
 * {@link ArithmeticException} for a duration beyond about 292 million years either way, instead
 * of the documented {@link IllegalArgumentException}.
 */
class ConsoleArgumentsRegressionTest {

    @Test
    void anIntervalFarOutOfRangeIsAnIllegalArgument() {
        for (Duration d : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MIN_VALUE)}) {
            assertThatThrownBy(() -> Console.builder().interval(d)).as("interval(" + d + ")")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("interval");
        }
    }

    @Test
    void aRequestTimeoutFarOutOfRangeIsAnIllegalArgument() {
        for (Duration d : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MIN_VALUE)}) {
            assertThatThrownBy(() -> Console.builder().requestTimeout(d)).as("requestTimeout(" + d + ")")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestTimeout");
        }
    }
}
