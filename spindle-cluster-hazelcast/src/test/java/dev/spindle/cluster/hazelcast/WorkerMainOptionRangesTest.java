/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Hazelcast worker's command line refuses, in the option's name and before its member
 * starts, values that its member or pool would refuse later: more threads than a pool may have
 * (the launcher said the worker "could not start its member", status 1, a bad command line
 * reported as a failed start), a port above 65535 (refused by the settings as "port", not
 * "--port"), and an address that does not resolve (reported as a port another member might be
 * using, with the advice to choose another port).
 */
class WorkerMainOptionRangesTest {

    private static final Map<String, String> ENV = Map.of("SPINDLE_SECRET", "worker-main-secret-0123456789");

    @Test
    void moreThreadsThanAPoolMayHaveAreABadCommandLine() {
        assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"--id", "0", "--cluster", "c",
            "--threads", "32768"}, ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--threads must be at most 32767, got 32768");
    }

    @Test
    void aPortAbove65535IsRefusedByItsOption() {
        assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"--id", "0", "--cluster", "c",
            "--port", "65536"}, ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--port must be at most 65535, got 65536");
    }

    /**
     * A value the settings builder refuses is reported under the option's name: the builder names
     * the setting as its API does ({@code bindAddress must not be blank}, {@code member must be
     * host:port}, {@code not a package name}), which the command line does not spell.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--bind    | ''",
        "--members | no-port",
        "--allow   | not a package",
    })
    void aValueTheSettingsRefuseIsNamedByItsOption(String option, String value) {
        assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"--id", "0", "--cluster", "c", option, value}, ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(option + ": ");
    }

    @Test
    void anAddressThatDoesNotResolveIsNamedAsSuch() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WorkerMain.run(new String[] {"--id", "0", "--cluster", "c", "--bind", "no-such-host.invalid"}, ENV,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String firstLine = err.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("");
        assertThat(status).isEqualTo(WorkerMain.USAGE);
        assertThat(firstLine).startsWith("WorkerMain: --bind no-such-host.invalid: no such address")
                .doesNotContain("--port");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
