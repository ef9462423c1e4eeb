/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.async.AsyncTargets;
import dev.spindle.bench.async.AsyncWorkloads;
import dev.spindle.bench.quick.AsyncHarness;
import dev.spindle.bench.quick.AsyncReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code spindle bench async}: the async workloads on AsyncRuntime and CompletableFuture, interleaved. */
@Command(name = "async",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = {
            "Runs Tokio's runtime benchmarks (spawn_many, yield_many, ping_pong, chained_spawn) as AsyncTasks on"
                    + " AsyncRuntime and as CompletableFuture stages on a ForkJoinPool of the same parallelism,"
                    + " interleaved, and prints the median time of each and the ratio best async throughput /"
                    + " best CompletableFuture throughput (> 1 means AsyncRuntime is faster).",
            "Then the contention workloads (many tasks competing for a would-block resource) on the async"
                    + " runtimes: throughput and the p50/p99/max of the tasks' wake counts and completion times,"
                    + " and the ratios WORK_STEALING p99 / HYBRID p99.",
            "Runtimes: ${sys:spindle.bench.async.runtimes}. Every run checks its result."
                    + " For publishable numbers use the JMH class AsyncBench (spindle-bench/target/benchmarks.jar).",
        })
final class BenchAsyncCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--workloads", split = ",", paramLabel = "NAME",
            description = "Comma-separated workloads to run (default: all). Valid: ${sys:spindle.bench.async.names}.")
    List<String> workloads;

    @Option(names = "--runtimes", split = ",", paramLabel = "ID",
            description = "Comma-separated runtimes to compare (default: all). Valid: ${sys:spindle.bench.async.runtimes}.")
    List<String> runtimes;

    @Option(names = "--workers", paramLabel = "N",
            description = "Worker threads of every runtime (default: available processors, ${DEFAULT-VALUE}).")
    int workers = Runtime.getRuntime().availableProcessors();

    @Option(names = "--rounds", paramLabel = "N",
            description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds = AsyncHarness.DEFAULT_ROUNDS;

    @Option(names = "--warmup", paramLabel = "N",
            description = "Warm-up rounds, discarded; they also calibrate runs per sample (default: ${DEFAULT-VALUE}).")
    int warmup = AsyncHarness.DEFAULT_WARMUP_ROUNDS;

    @Option(names = "--json", description = "Print the results as JSON instead of tables.")
    boolean json;

    @Option(names = "--progress", paramLabel = "MODE",
            description = "Progress on stderr: bar, lines or none (default: bar on a terminal, lines otherwise).")
    String progress;

    static {
        System.setProperty("spindle.bench.async.names", String.join(", ", AsyncWorkloads.names()));
        System.setProperty("spindle.bench.async.runtimes", String.join(", ", AsyncTargets.ids()));
    }

    @Override
    public Integer call() {
        requireRange("--workers", workers, 1, 0x7fff);
        requireRange("--rounds", rounds, 1, 100_000);
        requireRange("--warmup", warmup, 1, 100_000);
        AsyncHarness.Options o = new AsyncHarness.Options();
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
        AsyncReport report = new AsyncHarness(o).run();
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
