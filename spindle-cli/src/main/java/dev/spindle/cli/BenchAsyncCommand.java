/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.async.AsyncTargets;
import dev.spindle.bench.async.AsyncWorkloads;
import dev.spindle.bench.quick.AsyncHarness;
import dev.spindle.bench.quick.AsyncReport;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spindle bench async}: the async workloads on AsyncRuntime, CompletableFuture and (JDK 21+)
 * virtual threads, interleaved.
 */
@Command(name = "async",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = {
            "Runs Tokio's runtime benchmarks (spawn_many, yield_many, ping_pong, chained_spawn; and, when named,"
                    + " ping_pong_channel: ping_pong with a bounded channel as the async side's one-shots, and"
                    + " spawn_many_all: spawn_many joined with Async.all) as AsyncTasks on"
                    + " AsyncRuntime and as CompletableFuture stages on a ForkJoinPool of the same parallelism,"
                    + " interleaved, and prints the median time of each and the ratio best async throughput /"
                    + " best CompletableFuture throughput (> 1 means AsyncRuntime is faster). On JDK 21+ also as"
                    + " blocking code on a virtual thread per task (runtime vthreads, carriers = --workers, JVM-wide)"
                    + " with the ratio best async throughput / virtual threads' throughput (column 'x vthreads').",
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
            description = "Comma-separated workloads to run (default: all but ping_pong_channel and spawn_many_all,"
                    + " which run only when named). Valid: ${sys:spindle.bench.async.names}.")
    List<String> workloads;

    @Option(names = "--runtimes", split = ",", paramLabel = "ID",
            description = "Comma-separated runtimes to compare (default: all that this JVM can run; vthreads needs"
                    + " JDK 21+). Valid: ${sys:spindle.bench.async.runtimes}.")
    List<String> runtimes;

    @Mixin
    RoundOptions options;

    @Mixin
    Forks.Count forks;

    static {
        System.setProperty("spindle.bench.async.names", String.join(", ", AsyncWorkloads.names()));
        System.setProperty("spindle.bench.async.runtimes", String.join(", ", AsyncTargets.ids()));
    }

    @Override
    public Integer call() {
        BenchCommand.refuseOptionsBefore(spec);
        options.validate(spec, AsyncHarness.DEFAULT_ROUNDS, AsyncHarness.DEFAULT_WARMUP_ROUNDS);
        AsyncHarness.Options o = new AsyncHarness.Options();
        RoundOptions.asUsageError(spec, () -> {
            if (workloads != null) {
                o.workloads(workloads);
            }
            if (runtimes != null) {
                o.runtimes(runtimes);
            }
            o.workers(options.workers).rounds(options.rounds).warmupRounds(options.warmup);
        });
        forks.validate(spec);
        if (forks.forks > 1) {
            return Forks.run(spec, forks.forks, Forks.ASYNC, options.json, options.progressDisplay(spec));
        }
        o.progress(options.progressDisplay(spec));
        AsyncReport report = new AsyncHarness(o).run();
        options.print(spec, report::toTable, report::toJson);
        return 0;
    }

}
