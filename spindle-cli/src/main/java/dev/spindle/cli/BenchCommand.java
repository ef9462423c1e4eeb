/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.quick.Progress;
import dev.spindle.bench.quick.QuickHarness;
import dev.spindle.bench.quick.Report;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spindle bench}: the quick interleaved Spindle vs ForkJoinPool harness; {@code spindle
 * bench actors} ({@link BenchActorsCommand}) runs the actor workloads instead, {@code spindle bench
 * async} ({@link BenchAsyncCommand}) the async ones, {@code spindle bench cluster}
 * ({@link BenchClusterCommand}) the cluster graphs.
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        subcommands = {BenchActorsCommand.class, BenchAsyncCommand.class, BenchEchoCommand.class, BenchClusterCommand.class},
        description = {
            "Runs workloads on Spindle's WorkStealingPool and on the faster ForkJoinPool mode, interleaved,"
                    + " and prints the median time of each, the ratio FJP time / Spindle time"
                    + " (= Spindle throughput / FJP throughput; > 1 means Spindle is faster) and the spread.",
            "Every run checks its result. For publishable numbers use the JMH suite (spindle-bench/target/benchmarks.jar).",
            "'spindle bench actors' compares actor runtimes (Spindle's and Pekko's) on the Savina actor workloads.",
            "'spindle bench async' compares AsyncRuntime with CompletableFuture chains (and virtual threads on JDK 21+)"
                    + " on Tokio's runtime benchmarks,"
                    + " and HYBRID with WORK_STEALING under contention.",
            "'spindle bench echo' compares TCP echo servers on AsyncRuntime, Netty and virtual threads under a closed-loop load.",
            "'spindle bench cluster' runs distributed task graphs on Spindle clusters, the side Dask is compared with.",
        })
final class BenchCommand implements Callable<Integer> {

    /** Set by the launcher: 1 when its stderr is a terminal, 0 when not. */
    static final String TTY_ENV = "SPINDLE_STDERR_TTY";

    @Spec
    CommandSpec spec;

    @Option(names = "--workloads", split = ",", paramLabel = "NAME",
            description = "Comma-separated workloads and probes to run (default: all). Valid: ${sys:spindle.bench.names}.")
    List<String> workloads;

    @Mixin
    RoundOptions options;

    @Mixin
    Forks.Count forks;

    static {
        System.setProperty("spindle.bench.names", String.join(", ", QuickHarness.validNames()));
    }

    @Override
    public Integer call() {
        options.validate(spec, QuickHarness.DEFAULT_ROUNDS, QuickHarness.DEFAULT_WARMUP_ROUNDS);
        QuickHarness.Options o = new QuickHarness.Options();
        RoundOptions.asUsageError(spec, () -> {
            if (workloads != null) {
                o.workloads(workloads);
            }
            o.workers(options.workers).rounds(options.rounds).warmupRounds(options.warmup);
        });
        forks.validate(spec);
        if (forks.forks > 1) {
            return Forks.run(spec, forks.forks, Forks.FORK_JOIN, options.json, options.progressDisplay(spec));
        }
        o.progress(options.progressDisplay(spec));
        Report report = new QuickHarness(o).run();
        options.print(spec, report::toTable, report::toJson);
        return 0;
    }

    /**
     * Refuses options given to {@code bench} before the subcommand {@code sub} runs
     * ({@code bench --forks 3 cluster}): they are the fork/join suite's, which does not run, so
     * the subcommand would run without them.
     */
    static void refuseOptionsBefore(CommandSpec sub) {
        List<OptionSpec> given = sub.commandLine().getParent().getParseResult().matchedOptions();
        if (!given.isEmpty()) {
            String names = given.stream().map(o -> "'" + o.longestName() + "'").collect(Collectors.joining(", "));
            throw new CommandLine.ParameterException(sub.commandLine(), (given.size() == 1 ? "option " : "options ")
                    + names + " given before '" + sub.name() + "' would be ignored, as options of 'spindle bench' itself;"
                    + " give them after '" + sub.name() + "'");
        }
    }

    /** The progress display {@code --progress MODE} asks for; bar or lines by default. */
    static Progress progress(String progress, CommandSpec spec) {
        String mode = progress;
        if (mode == null) {
            mode = stderrIsTerminal() ? "bar" : "lines";
        }
        switch (mode.toLowerCase(Locale.ROOT)) {
            case "bar":
                return Progress.bar(System.err);
            case "lines":
                return Progress.lines(System.err);
            case "none":
                return Progress.none();
            default:
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--progress must be bar, lines or none, was '" + progress + "'");
        }
    }

    /**
     * Java 17 cannot ask whether stderr alone is a terminal; the launcher tells through
     * {@value #TTY_ENV}. Without it, a console (stdin and stdout on a terminal) is the best guess.
     */
    static boolean stderrIsTerminal() {
        String env = System.getenv(TTY_ENV);
        if (env != null) {
            return env.equals("1");
        }
        return System.console() != null;
    }
}
