/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ./spindle --help} lists {@code test} and {@code certs} beside the CLI's commands and a
 * {@code help} command that "displays help information about the specified command"; but
 * {@code ./spindle help test} and {@code ./spindle help certs} reached the CLI, which answered
 * "Unknown subcommand" with status 2. The script now answers them as {@code COMMAND --help}.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HelpOfTheScriptsOwnCommandsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "test  | Usage: ./spindle test [MAVEN_ARGS...]",
        "certs | usage: spindle certs DIR",
    })
    void helpOfTestAndCertsPrintsTheirUsage(String command, String usage) throws Exception {
        Path script = Path.of("..", "spindle").toAbsolutePath().normalize();
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", script.toString(), "help", command))
                .redirectErrorStream(true);
        // certs runs DevCertificates.java as a single-file program, compiled at each start: a
        // short run that C1 alone finishes with less CPU; only the speed differs
        pb.environment().put("SPINDLE_JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains(usage).doesNotContain("Unknown subcommand");
    }
}
