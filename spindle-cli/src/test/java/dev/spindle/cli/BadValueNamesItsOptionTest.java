/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A value that a harness refuses is a usage error that names the option as the user typed it.
 * The echo and cluster harnesses check these values themselves, and their messages name the
 * setting in their own words ({@code connections must be between 1 and 10000}, {@code worker
 * processes must be between 1 and 16}, {@code unknown workload 'x'} for a {@code --shapes}
 * name): the user had to guess which option was meant.
 */
class BadValueNamesItsOptionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "echo    | --connections       | 0",
        "echo    | --seconds           | 0",
        "echo    | --settle            | -1",
        "echo    | --payload           | 0",
        "echo    | --client-threads    | 0",
        "cluster | --threads           | 0",
        "cluster | --inprocess-workers | 65",
        "cluster | --process-workers   | 17",
        "cluster | --shapes            | nosuch",
        "cluster | --configs           | nosuch",
    })
    void theErrorNamesTheOption(String suite, String option, String value) {
        CliOutcome r = CliOutcome.run("bench", suite, option, value, "--progress", "none");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElse("")).startsWith("spindle bench " + suite + ": " + option + ": ");
        assertThat(r.out()).isEmpty();
    }
}
