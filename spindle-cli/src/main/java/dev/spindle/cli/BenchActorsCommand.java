/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.actor.ActorKits;
import dev.spindle.bench.actor.ActorWorkloads;
import dev.spindle.bench.quick.ActorHarness;
import dev.spindle.bench.quick.ActorReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code spindle bench actors}: the actor workloads on every actor runtime, interleaved. */
@Command(name = "actors",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = {
            "Runs the Savina actor workloads (and a tell-only throughput test) on each actor runtime, interleaved,"
                    + " and prints the median time of each, the ratio best Spindle throughput / best Pekko throughput"
                    + " (> 1 means Spindle is faster; n/a while no Spindle runtime is available) and the spread.",
            "Runtimes: ${sys:spindle.bench.actor.runtimes}. Every run checks its result."
                    + " For publishable numbers use the JMH class ActorBench (spindle-bench/target/benchmarks.jar).",
        })
final class BenchActorsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--workloads", split = ",", paramLabel = "NAME",
            description = "Comma-separated actor workloads to run (default: all). Valid: ${sys:spindle.bench.actor.names}.")
    List<String> workloads;

    @Option(names = "--runtimes", split = ",", paramLabel = "ID",
            description = "Comma-separated actor runtimes to compare (default: all). Valid: ${sys:spindle.bench.actor.runtimes}.")
    List<String> runtimes;

    @Option(names = "--workers", paramLabel = "N",
            description = "Worker threads of every runtime (default: available processors, ${DEFAULT-VALUE}).")
    int workers = Runtime.getRuntime().availableProcessors();

    @Option(names = "--rounds", paramLabel = "N",
            description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds = ActorHarness.DEFAULT_ROUNDS;

    @Option(names = "--warmup", paramLabel = "N",
            description = "Warm-up rounds, discarded; they also calibrate runs per sample (default: ${DEFAULT-VALUE}).")
    int warmup = ActorHarness.DEFAULT_WARMUP_ROUNDS;

    @Option(names = "--json", description = "Print the results as JSON instead of a table.")
    boolean json;

    @Option(names = "--progress", paramLabel = "MODE",
            description = "Progress on stderr: bar, lines or none (default: bar on a terminal, lines otherwise).")
    String progress;

    static {
        System.setProperty("spindle.bench.actor.names", String.join(", ", ActorWorkloads.names()));
        System.setProperty("spindle.bench.actor.runtimes", String.join(", ", ActorKits.ids()));
    }

    @Override
    public Integer call() {
        requireRange("--workers", workers, 1, 0x7fff);
        requireRange("--rounds", rounds, 1, 100_000);
        requireRange("--warmup", warmup, 1, 100_000);
        ActorHarness.Options o = new ActorHarness.Options();
        try {
            if (workloads != null) {
                o.workloads(workloads);
            }
            if (runtimes != null) {
                o.runtimes(runtimes);
            }
            o.workers(workers).rounds(rounds).warmupRounds(warmup);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        o.progress(BenchCommand.progress(progress, spec));
        ActorReport report = new ActorHarness(o).run();
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? report.toJson() : report.toTable());
        out.flush();
        return 0;
    }

    private void requireRange(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    option + " must be between " + min + " and " + max + ", was " + value);
        }
    }
}
