/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A failed run is reported under the command as typed. The report named the leaf command alone:
 * {@code spindle bench cluster} failed as "spindle cluster: error: ...", which is another command
 * (the in-process cluster demo), and {@code spindle bench async} as "spindle async", which does
 * not exist; bad arguments were already reported under the whole name.
 */
class FailedSubcommandNameTest {

    @Test
    void aNestedCommandsFailureNamesTheWholeCommand() {
        assertThat(failureOf("bench", "cluster")).startsWith("spindle bench cluster: error: it broke");
        assertThat(failureOf("bench", "async")).startsWith("spindle bench async: error: it broke");
        assertThat(failureOf("cluster")).startsWith("spindle cluster: error: it broke");
        assertThat(failureOf()).startsWith("spindle: error: it broke");
    }

    /** What {@link SpindleCli#onFailure} prints for a failure of the command at {@code path}. */
    private static String failureOf(String... path) {
        CommandLine cl = SpindleCli.commandLine();
        StringWriter text = new StringWriter();
        cl.setErr(new PrintWriter(text));
        for (String name : path) {
            cl = cl.getSubcommands().get(name);
        }
        assertThat(SpindleCli.onFailure(new IllegalStateException("it broke"), cl, null)).isEqualTo(1);
        return text.toString();
    }
}
