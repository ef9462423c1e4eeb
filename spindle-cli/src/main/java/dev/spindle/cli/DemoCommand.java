/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.SchedulerStats;
import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code spindle demo}: fork/join fib on a WorkStealingPool, then the pool's counters. */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = "Computes fib(n) by fork/join on a WorkStealingPool (spawn one branch, compute the other,"
                + " join; no cutoff) and prints the result, the time and the pool's per-worker counters.")
final class DemoCommand implements Callable<Integer> {

    static final int MAX_N = 42;

    @Spec
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "N",
            description = "Worker threads (default: available processors, ${DEFAULT-VALUE}).")
    int workers = Runtime.getRuntime().availableProcessors();

    @Option(names = "--n", paramLabel = "N", description = "Which Fibonacci number, 0 to " + MAX_N + " (default: ${DEFAULT-VALUE}).")
    int n = 30;

    @Override
    public Integer call() throws InterruptedException {
        if (workers < 1 || workers > 0x7fff) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--workers must be between 1 and 32767, was " + workers);
        }
        if (n < 0 || n > MAX_N) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--n must be between 0 and " + MAX_N + ", was " + n);
        }
        PrintWriter out = spec.commandLine().getOut();
        WorkStealingPool pool = WorkStealingPool.builder().workers(workers).name("demo").build();
        long t0 = System.nanoTime();
        long result = pool.invoke(() -> fib(pool, n));
        long elapsed = System.nanoTime() - t0;
        // The workers' figures while the pool runs: once it has terminated its stats report no
        // live, blocked or parked worker, and the demo said "live workers 0" of every run. The
        // counters are read after termination, when every worker has counted its last task.
        SchedulerStats running = pool.stats();
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pool did not terminate within 30 s");
        }
        long expected = iterativeFib(n);
        if (result != expected) {
            throw new IllegalStateException("fib(" + n + ") computed " + result + ", expected " + expected);
        }
        out.printf(Locale.ROOT, "fib(%d) = %d (checked)%n", n, result);
        out.printf(Locale.ROOT, "time: %.2f ms on %d workers, %,d tasks spawned%n",
                elapsed / 1e6, workers, n < 2 ? 0 : iterativeFib(n + 1) - 1);
        out.println();
        out.print(statsTable(running, pool.stats()));
        out.flush();
        return 0;
    }

    /** The fork/join recursion from the Spindle documentation. */
    static long fib(WorkStealingPool pool, int n) {
        if (n < 2) {
            return n;
        }
        Task<Long> left = pool.spawn(() -> fib(pool, n - 1));
        long right = fib(pool, n - 2);
        return left.join() + right;
    }

    static long iterativeFib(int n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    /**
     * The pool's figures: its workers as {@code running} saw them (a snapshot taken before
     * shutdown), then its counters from {@code s} (the final snapshot, taken after termination),
     * a line per worker and the totals.
     */
    static String statsTable(SchedulerStats running, SchedulerStats s) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "pool %s: parallelism %d, live workers %d, blocked %d, injector %d"
                + " (as the computation ended)%n", running.name(), running.parallelism(), running.liveWorkers(),
                running.blockedWorkers(), running.sharedQueued()));
        sb.append(String.format(Locale.ROOT, "counters after shutdown:%n"));
        String fmt = "%-8s %-5s %12s %12s %12s %12s %12s %8s %6s%n";
        sb.append(String.format(Locale.ROOT, fmt, "worker", "spare", "executed", "stole", "runner helps",
                "stolen from", "overflowed", "parks", "queue"));
        long stolenFrom = 0;
        long overflowed = 0;
        long queued = 0;
        for (SchedulerStats.WorkerStats w : s.workers()) {
            sb.append(String.format(Locale.ROOT, fmt, w.index(), w.spare() ? "yes" : "no", group(w.completed()),
                    group(w.steals()), group(w.runnerHelps()), group(w.stolenFrom()), group(w.overflowed()),
                    group(w.parks()), w.queued()));
            stolenFrom += w.stolenFrom();
            overflowed += w.overflowed();
            queued += w.queued();
        }
        sb.append(String.format(Locale.ROOT, fmt, "total", "", group(s.completed()), group(s.steals()),
                group(s.runnerHelps()), group(stolenFrom), group(overflowed), group(s.parks()), queued));
        return sb.toString();
    }

    private static String group(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }
}
