/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each bad value of the Hazelcast launcher's command line is named by its option, once. An empty
 * {@code --cluster} was refused in the settings' words ({@code clusterName must not be blank});
 * an empty {@code --secret-file} was read as the current directory ({@code cannot read it
 * (java.io.IOException: Is a directory)}); an empty entry of a list was named twice
 * ({@code --allow: --allow 'a,': ...}).
 */
class WorkerMainNamesEachOptionTest {

    private static final Map<String, String> ENV = Map.of("SPINDLE_SECRET", "names-each-option-0123456789");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--cluster     | ''   | --cluster: clusterName must not be blank",
        "--cluster     | ' '  | --cluster: clusterName must not be blank",
        "--secret-file | ''   | --secret-file needs a file, got ''",
        "--allow       | 'a,' | --allow 'a,': an empty entry (a comma too many, or a variable that was not set?)",
        "--members     | ',' | --members ',': an empty entry (a comma too many, or a variable that was not set?)",
    })
    void theErrorNamesTheOptionOnce(String option, String value, String message) {
        String[] args = option.equals("--cluster") ? new String[] {"--id", "0", "--cluster", value}
                : new String[] {"--id", "0", "--cluster", "c", option, value};
        assertThatThrownBy(() -> WorkerMain.Options.parse(args, ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
