/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code spindle help bench actors} shows the help of {@code bench actors}, as {@code spindle
 * bench actors --help} does, and a name that is no subcommand is a usage error. Picocli's help
 * command read only its first name: it printed the help of {@code bench} for {@code help bench
 * actors}, and for {@code help bench nosuch} too, with status 0.
 */
class HelpOfASubcommandTest {

    @Test
    void helpOfANestedCommandIsItsOwn() {
        CliOutcome help = CliOutcome.run("help", "bench", "actors");
        CliOutcome option = CliOutcome.run("bench", "actors", "--help");
        assertThat(help.exit()).as(help.err()).isZero();
        assertThat(help.out()).startsWith("Usage: spindle bench actors ").isEqualTo(option.out());
    }

    @Test
    void helpOfOneCommandIsStillItsOwn() {
        CliOutcome help = CliOutcome.run("help", "bench");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).isEqualTo(CliOutcome.run("bench", "--help").out());
        assertThat(CliOutcome.run("help").out()).isEqualTo(CliOutcome.run("--help").out());
    }

    @Test
    void aNameThatIsNoSubcommandIsAUsageError() {
        CliOutcome r = CliOutcome.run("help", "bench", "nosuch");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("spindle bench: Unknown subcommand 'nosuch'")
                .contains("Try 'spindle bench --help'");

        CliOutcome top = CliOutcome.run("help", "nosuch");
        assertThat(top.exit()).isEqualTo(2);
        assertThat(top.err()).startsWith("spindle: Unknown subcommand 'nosuch'");
    }
}
