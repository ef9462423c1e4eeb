/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.actor.ActorKits;
import dev.spindle.bench.actor.ActorWorkloads;
import dev.spindle.bench.quick.ActorHarness;
import dev.spindle.bench.quick.ActorReport;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
                    + " (> 1 means Spindle is faster) and the spread.",
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

    @Mixin
    RoundOptions options;

    @Mixin
    Forks.Count forks;

    static {
        System.setProperty("spindle.bench.actor.names", String.join(", ", ActorWorkloads.names()));
        System.setProperty("spindle.bench.actor.runtimes", String.join(", ", ActorKits.ids()));
    }

    @Override
    public Integer call() {
        BenchCommand.refuseOptionsBefore(spec);
        options.validate(spec, ActorHarness.DEFAULT_ROUNDS, ActorHarness.DEFAULT_WARMUP_ROUNDS);
        ActorHarness.Options o = new ActorHarness.Options();
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
            return Forks.run(spec, forks.forks, Forks.ACTORS, options.json, options.progressDisplay(spec));
        }
        o.progress(options.progressDisplay(spec));
        ActorReport report = new ActorHarness(o).run();
        options.print(spec, report::toTable, report::toJson);
        return 0;
    }

}
