/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench cluster --configs} takes its names in any case and with spaces around them, as
 * every list option of the benchmark commands does; a worker count for a configuration so named
 * is for that configuration.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BenchClusterConfigNamesTest {

    /**
     * {@code --configs INPROCESS --inprocess-workers 2} was refused (exit 2: "--inprocess-workers
     * sets the workers of the inprocess configuration, which --configs INPROCESS leaves out"):
     * the check compared the names as typed, while the harness takes them trimmed and in lower
     * case and would have run the inprocess configuration.
     */
    @Test
    void aWorkerCountIsTakenForAConfigurationNamedInAnotherCase() {
        CliOutcome r = CliOutcome.run("bench", "cluster", "--configs", "INPROCESS", "--inprocess-workers", "2",
                "--shapes", "tiny", "--size", "tiny", "--rounds", "1", "--warmup", "1", "--progress", "none");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("inprocess").contains("2x2");
    }

    /** A worker count for the configuration that a name in another case leaves out is still refused. */
    @Test
    void aWorkerCountForAConfigurationLeftOutIsStillRefused() {
        CliOutcome r = CliOutcome.run("bench", "cluster", "--configs", "INPROCESS", "--process-workers", "2",
                "--shapes", "tiny", "--size", "tiny", "--rounds", "1", "--warmup", "1", "--progress", "none");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--process-workers").contains("processes");
        assertThat(r.out()).isEmpty();
    }
}
