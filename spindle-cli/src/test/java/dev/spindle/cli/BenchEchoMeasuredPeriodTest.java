/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code bench echo --seconds S}: a measured period too short to measure is a usage error, not a failed run. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BenchEchoMeasuredPeriodTest {

    /**
     * {@code --seconds 1e-10} passed the option's check (more than 0) but is less than a
     * nanosecond, the load's resolution: the run then failed (exit 1, "error: measured period must
     * be more than 0 and at most 1 hour, was PT0S"), as if a server had broken, instead of the
     * usage error (exit 2) that names the option.
     */
    @Test
    void secondsBelowOneNanosecondAreAUsageError() {
        CliOutcome r = CliOutcome.run("bench", "echo", "--servers", "netty", "--seconds", "1e-10", "--rounds", "1",
                "--warmup", "1", "--workers", "1", "--connections", "1", "--progress", "none");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("seconds").contains("1.0E-10").doesNotContain("error:");
        assertThat(r.out()).isEmpty();
    }
}
