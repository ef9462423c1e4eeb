/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.bench.echo.EchoHarness;
import dev.spindle.bench.quick.ActorHarness;
import dev.spindle.bench.quick.AsyncHarness;
import dev.spindle.bench.quick.ClusterHarness;
import dev.spindle.bench.quick.QuickHarness;
import org.junit.jupiter.api.Test;

/**
 * The {@code --rounds} and {@code --warmup} help of every bench command states the defaults its
 * harness uses: the options are shared, so the text names each suite's. {@code bench echo}'s
 * (5 and 1) were missing, and its help read as if it ran 5 warm-up rounds.
 */
class BenchRoundDefaultsHelpTest {

    /** The help of {@code bench [suite]}, its lines joined, so a wrapped description reads as one. */
    private static String help(String... command) {
        String[] args = new String[command.length + 1];
        System.arraycopy(command, 0, args, 0, command.length);
        args[command.length] = "--help";
        CliOutcome r = CliOutcome.run(args);
        assertThat(r.exit()).isZero();
        return r.out().replaceAll("\\s+", " ");
    }

    @Test
    void everySuitesDefaultRoundsAreInTheHelp() {
        String rounds = "Measured rounds (default: " + QuickHarness.DEFAULT_ROUNDS + " for the fork/join suite, "
                + ActorHarness.DEFAULT_ROUNDS + " for actors, " + AsyncHarness.DEFAULT_ROUNDS + " for async, "
                + EchoHarness.DEFAULT_ROUNDS + " for echo, " + ClusterHarness.DEFAULT_ROUNDS + " for cluster)";
        String warmup = "(default: " + QuickHarness.DEFAULT_WARMUP_ROUNDS + " for the fork/join suite, "
                + ActorHarness.DEFAULT_WARMUP_ROUNDS + " for actors, " + AsyncHarness.DEFAULT_WARMUP_ROUNDS
                + " for async, " + EchoHarness.DEFAULT_WARMUP_ROUNDS + " for echo, "
                + ClusterHarness.DEFAULT_WARMUP_ROUNDS + " for cluster)";
        for (String[] command : new String[][] {{"bench"}, {"bench", "actors"}, {"bench", "async"},
                {"bench", "echo"}, {"bench", "cluster"}}) {
            String text = help(command);
            assertThat(text).as(String.join(" ", command)).contains(rounds).contains(warmup);
        }
    }
}
