/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A comma-separated option of a bench command with an empty entry ({@code --workloads fib,}, a
 * doubled comma, an unset variable in {@code --workloads "$A,$B"}) is a usage error that names
 * the option and the value as typed. picocli's split dropped a trailing empty entry, so
 * {@code bench --workloads fib,} ran fib alone without a word; a doubled comma's empty entry
 * reached the harness, refused as {@code unknown workload ''} without the option or the value.
 *
 * <p>Each command line ends in {@code --progress bogus}, which every bench command refuses
 * before it runs anything: a command line that passed the list (as before the fix) ends there,
 * not in a benchmark.
 */
class EmptyListEntryTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bench         | --workloads | 'fib,'",
        "bench         | --workloads | 'fib,,nqueens'",
        "bench         | --workloads | ',fib'",
        "bench actors  | --workloads | 'pingpong,'",
        "bench actors  | --runtimes  | 'spindle-ws,'",
        "bench async   | --workloads | 'spawn_many,'",
        "bench async   | --runtimes  | 'async-ws, ,cf-fjp'",
        "bench echo    | --servers   | 'spindle,'",
        "bench cluster | --shapes    | 'tiny,'",
        "bench cluster | --configs   | 'inprocess,'",
    })
    void anEmptyEntryIsAUsageErrorNamingTheOptionAndTheValue(String command, String option, String value) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of(option, value, "--progress", "bogus"));
        CliOutcome r = CliOutcome.run(args.toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElse(""))
                .isEqualTo("spindle " + command + ": " + option + " '" + value + "': an empty entry (a comma too many,"
                        + " or a variable that was not set?)");
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bench         | --workloads=fib,",
        "bench echo    | --servers=netty,,spindle",
    })
    void theAttachedFormIsRefusedToo(String command, String optionAndValue) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of(optionAndValue, "--progress", "bogus"));
        CliOutcome r = CliOutcome.run(args.toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        String[] parts = optionAndValue.split("=", 2);
        assertThat(r.err().lines().findFirst().orElse(""))
                .startsWith("spindle " + command + ": " + parts[0] + " '" + parts[1] + "': an empty entry");
    }
}
