/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A worker launcher's list option ({@code --seed}, {@code --members}, {@code --allow}) with an
 * empty entry, from a comma too many or an unset variable ({@code --seed "$A,$B"}), is a bad
 * command line that names the option and the value. A trailing comma was dropped without a word
 * ({@code String.split} drops trailing empty strings), so the worker joined through fewer seeds,
 * or allowed fewer packages, than the command line seemed to name; a doubled or leading comma
 * passed an empty entry on, which the settings refused as {@code seed node must be host:port,
 * got ''}, without the value as typed.
 */
class EmptyListEntryTest {

    private static final Set<String> OPTIONS = Set.of("--seed");

    @ParameterizedTest
    @ValueSource(strings = {"a:1,", "a:1,,b:2", ",a:1", "a:1, ,b:2", "", " ", ","})
    void anEmptyEntryIsRefusedNamingTheOptionAndTheValue(String value) {
        WorkerCommandLine line = WorkerCommandLine.parse(new String[] {"--seed", value}, OPTIONS);
        assertThatThrownBy(() -> line.list("--seed"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--seed '" + value + "': an empty entry");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a:1", "a:1,b:2", " a:1 , b:2 "})
    void entriesAreStripped(String value) {
        WorkerCommandLine line = WorkerCommandLine.parse(new String[] {"--seed", value}, OPTIONS);
        assertThat(line.list("--seed")).isNotEmpty().allSatisfy(s -> assertThat(s).isEqualTo(s.strip()).isNotEmpty());
    }
}
