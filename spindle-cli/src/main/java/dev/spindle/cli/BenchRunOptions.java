/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.echo.EchoHarness;
import dev.spindle.bench.quick.ActorHarness;
import dev.spindle.bench.quick.AsyncHarness;
import dev.spindle.bench.quick.ClusterHarness;
import dev.spindle.bench.quick.Progress;
import dev.spindle.bench.quick.QuickHarness;
import java.io.PrintWriter;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options every benchmark command shares (a picocli mixin): rounds, warm-up rounds, JSON
 * output and the progress display, with their range checks. {@link RoundOptions} adds the
 * worker threads of the commands that compare pools of one size.
 */
class BenchRunOptions {

    // The options are shared by every bench command, so their help names each suite's default,
    // from the harnesses' constants: a hand-written list had left echo's out.
    @Option(names = "--rounds", paramLabel = "N",
            description = "Measured rounds (default: " + QuickHarness.DEFAULT_ROUNDS + " for the fork/join suite, "
                    + ActorHarness.DEFAULT_ROUNDS + " for actors, " + AsyncHarness.DEFAULT_ROUNDS + " for async, "
                    + EchoHarness.DEFAULT_ROUNDS + " for echo, " + ClusterHarness.DEFAULT_ROUNDS + " for cluster).")
    Integer rounds;

    @Option(names = "--warmup", paramLabel = "N",
            description = "Warm-up rounds, discarded; in the fork/join, actor and async suites they also calibrate"
                    + " runs per sample (default: " + QuickHarness.DEFAULT_WARMUP_ROUNDS + " for the fork/join suite, "
                    + ActorHarness.DEFAULT_WARMUP_ROUNDS + " for actors, " + AsyncHarness.DEFAULT_WARMUP_ROUNDS
                    + " for async, " + EchoHarness.DEFAULT_WARMUP_ROUNDS + " for echo, "
                    + ClusterHarness.DEFAULT_WARMUP_ROUNDS + " for cluster).")
    Integer warmup;

    @Option(names = "--json", description = "Print the results as JSON instead of tables.")
    boolean json;

    @Option(names = "--progress", paramLabel = "MODE",
            description = "Progress on stderr: bar, lines or none (default: bar on a terminal, lines otherwise).")
    String progress;

    /** Checks the ranges; {@code --rounds}/{@code --warmup} fall back to the harness defaults. */
    void validate(CommandSpec spec, int defaultRounds, int defaultWarmup) {
        if (rounds == null) {
            rounds = defaultRounds;
        }
        if (warmup == null) {
            warmup = defaultWarmup;
        }
        requireRange(spec, "--rounds", rounds, 1, 100_000);
        requireRange(spec, "--warmup", warmup, 1, 100_000);
    }

    Progress progressDisplay(CommandSpec spec) {
        return BenchCommand.progress(progress, spec);
    }

    /**
     * Runs {@code configure} (harness options that may refuse a value) as a usage error, for
     * options whose harness message names them already ({@code --workers}, whose range the CLI
     * checks first; a list's {@code unknown workload 'x'}).
     */
    static void asUsageError(CommandSpec spec, Runnable configure) {
        asUsageError(spec, null, configure);
    }

    /**
     * Runs {@code set} (a harness setter that may refuse the value of {@code option}) as a usage
     * error that starts with the option's name: the harness names the setting in its own words
     * ({@code connections must be between...}, {@code worker processes...}), so without it the
     * user had to guess which of the options given was meant.
     */
    static void asUsageError(CommandSpec spec, String option, Runnable set) {
        try {
            set.run();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    option == null ? e.getMessage() : option + ": " + e.getMessage());
        }
    }

    /**
     * Prints the report as JSON or as tables, as {@code --json} says; in a child of
     * {@code --forks}, writes it to the file its parent reads ({@link Forks#writeReport}).
     */
    void print(CommandSpec spec, Supplier<String> table, Supplier<String> jsonText) {
        if (Forks.writeReport(json ? jsonText : table)) {
            return;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? jsonText.get() : table.get());
        out.flush();
    }

    static void requireRange(CommandSpec spec, String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    option + " must be between " + min + " and " + max + ", was " + value);
        }
    }
}
