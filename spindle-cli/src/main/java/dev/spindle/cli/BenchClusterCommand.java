/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.cluster.ClusterTarget;
import dev.spindle.bench.cluster.ClusterWorkloads;
import dev.spindle.bench.quick.ClusterHarness;
import dev.spindle.bench.quick.ClusterReport;
import dev.spindle.bench.workload.Size;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spindle bench cluster}: the Spindle side of the comparison with Dask
 * ({@link ClusterHarness}); {@code spindle-bench/scripts/dask-compare.sh} runs both sides.
 */
@Command(name = "cluster",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = {
            "Runs distributed task graphs (shapes: ${sys:spindle.bench.cluster.shapes}) on Spindle clusters and prints,"
                    + " per configuration and shape, the median time, tasks per second, the makespan over its lower"
                    + " bound (graphs of sleeping tasks), bytes moved between workers, TCP bytes sent by worker"
                    + " processes and steals. Every run checks its result.",
            "Configurations: inprocess = a LocalCluster (default 4 workers x 2 threads); processes = worker JVMs on"
                    + " Hazelcast on loopback with the coordinator in this JVM (default 3 x 2; give this JVM"
                    + " @spindle-cluster-hazelcast/jvm.args, e.g. in SPINDLE_JAVA_OPTS, and the workers get the same flags).",
            "spindle-bench/dask/dask_bench.py runs the same graphs on Dask and spindle-bench/scripts/dask-compare.sh"
                    + " runs both and prints the ratios Spindle / Dask.",
            "With --forks N, each configuration/shape's tasks per second and makespan over its bound, per JVM and"
                    + " their median.",
        })
final class BenchClusterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--shapes", split = ",", paramLabel = "NAME",
            description = "Comma-separated graph shapes (default: all). Valid: ${sys:spindle.bench.cluster.shapes}.")
    List<String> shapes;

    @Option(names = "--configs", split = ",", paramLabel = "NAME",
            description = "Comma-separated configurations (default: all). Valid: ${sys:spindle.bench.cluster.configs}.")
    List<String> configs;

    @Option(names = "--threads", paramLabel = "N", description = "Threads per worker (default: ${DEFAULT-VALUE}).")
    int threads = 2;

    @Option(names = "--inprocess-workers", paramLabel = "N",
            description = "Workers of the in-process cluster (default: ${DEFAULT-VALUE}).")
    int inProcessWorkers = 4;

    @Option(names = "--process-workers", paramLabel = "N",
            description = "Worker JVMs of the multi-process cluster (default: ${DEFAULT-VALUE}).")
    int processWorkers = 3;

    @Option(names = "--size", paramLabel = "SIZE",
            description = "Graph sizes: quick (the benchmark's, the same as dask_bench.py's) or tiny (a smoke test)"
                    + " (default: ${DEFAULT-VALUE}).")
    String size = "quick";

    @Mixin
    BenchRunOptions options;

    @Mixin
    Forks.Count forks;

    static {
        System.setProperty("spindle.bench.cluster.shapes", String.join(", ", ClusterWorkloads.SHAPES));
        System.setProperty("spindle.bench.cluster.configs", String.join(", ", ClusterTarget.CONFIGS));
    }

    /**
     * A worker count given for a configuration that {@code --configs} leaves out would be ignored:
     * the user meant another run than the one they would get. {@code selected} is the harness's
     * list, the names as it takes them (trimmed, in lower case), not as typed: {@code --configs
     * INPROCESS} runs the inprocess configuration, so its worker count counts.
     */
    private void refuseWorkersOfAnUnselectedConfig(List<String> selected, String option, String config) {
        if (!selected.contains(config) && spec.commandLine().getParseResult().hasMatchedOption(option)) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + " sets the workers of the " + config
                    + " configuration, which --configs " + String.join(",", configs) + " leaves out");
        }
    }

    @Override
    public Integer call() throws Exception {
        BenchCommand.refuseOptionsBefore(spec);
        options.validate(spec, ClusterHarness.DEFAULT_ROUNDS, ClusterHarness.DEFAULT_WARMUP_ROUNDS);
        ClusterHarness.Options o = new ClusterHarness.Options();
        if (shapes != null) {
            BenchRunOptions.asUsageError(spec, "--shapes", () -> o.workloads(shapes));
        }
        if (configs != null) {
            BenchRunOptions.asUsageError(spec, "--configs", () -> o.runtimes(configs));
        }
        BenchRunOptions.asUsageError(spec, "--threads", () -> o.threads(threads));
        BenchRunOptions.asUsageError(spec, "--inprocess-workers", () -> o.inProcessWorkers(inProcessWorkers));
        BenchRunOptions.asUsageError(spec, "--process-workers", () -> o.processWorkers(processWorkers));
        BenchRunOptions.asUsageError(spec, () -> o.rounds(options.rounds).warmupRounds(options.warmup));
        refuseWorkersOfAnUnselectedConfig(o.runtimes(), "--inprocess-workers", "inprocess");
        refuseWorkersOfAnUnselectedConfig(o.runtimes(), "--process-workers", "processes");
        switch (size.toLowerCase(Locale.ROOT)) {
            case "quick":
                o.size(Size.QUICK);
                break;
            case "tiny":
                o.size(Size.TINY);
                break;
            default:
                throw new CommandLine.ParameterException(spec.commandLine(), "--size must be quick or tiny, was '" + size + "'");
        }
        forks.validate(spec);
        if (forks.forks > 1) {
            return Forks.run(spec, forks.forks, Forks.CLUSTER, options.json, options.progressDisplay(spec));
        }
        o.progress(options.progressDisplay(spec));
        ClusterReport report = new ClusterHarness(o).run();
        options.print(spec, report::toTable, report::toJson);
        return 0;
    }
}
