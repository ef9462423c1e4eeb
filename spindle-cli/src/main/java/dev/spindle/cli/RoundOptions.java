/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options of the interleaved benchmark commands that compare runtimes of one size (a
 * picocli mixin): {@link BenchRunOptions} and the worker threads of every runtime.
 */
final class RoundOptions extends BenchRunOptions {

    @Option(names = "--workers", paramLabel = "N",
            description = "Worker threads of every runtime (default: available processors, ${DEFAULT-VALUE}).")
    int workers = Runtime.getRuntime().availableProcessors();

    /** Checks the ranges; {@code --rounds}/{@code --warmup} fall back to the harness defaults. */
    @Override
    void validate(CommandSpec spec, int defaultRounds, int defaultWarmup) {
        super.validate(spec, defaultRounds, defaultWarmup);
        requireRange(spec, "--workers", workers, 1, 0x7fff);
    }
}
