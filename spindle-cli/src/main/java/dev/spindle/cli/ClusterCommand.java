/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskSpec;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spindle cluster}: a map-then-reduce graph on an in-process cluster whose map tasks all
 * start on worker 0, with live per-worker progress and the steal events as they happen.
 */
@Command(name = "cluster",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = "Runs a demo task graph on an in-process LocalCluster: --tasks slow map tasks placed on"
                + " worker 0 (stealing spreads them), then a tree reduction of their results. Prints per-worker"
                + " progress every --every ms and the steal events.")
final class ClusterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "N", description = "Workers (default: ${DEFAULT-VALUE}).")
    int workers = 4;

    @Option(names = "--threads", paramLabel = "N", description = "Threads per worker (default: ${DEFAULT-VALUE}).")
    int threads = 2;

    @Option(names = "--tasks", paramLabel = "N", description = "Map tasks (default: ${DEFAULT-VALUE}).")
    int tasks = 120;

    @Option(names = "--millis", paramLabel = "MS", description = "Milliseconds per map task (default: ${DEFAULT-VALUE}).")
    int millis = 30;

    @Option(names = "--no-stealing", description = "Turn periodic work stealing off (it is on by default).")
    boolean noStealing;

    @Option(names = "--every", paramLabel = "MS", description = "Progress interval in ms (default: ${DEFAULT-VALUE}).")
    int every = 200;

    @Override
    public Integer call() throws Exception {
        check(workers >= 1 && workers <= 64, "--workers must be between 1 and 64, was " + workers);
        check(threads >= 1 && threads <= 64, "--threads must be between 1 and 64, was " + threads);
        check(tasks >= 1 && tasks <= 100_000, "--tasks must be between 1 and 100000, was " + tasks);
        check(millis >= 0 && millis <= 10_000, "--millis must be between 0 and 10000, was " + millis);
        check(every >= 10, "--every must be at least 10, was " + every);
        PrintWriter out = spec.commandLine().getOut();
        try (LocalCluster cluster = LocalCluster.builder().workers(workers).threadsPerWorker(threads)
                .stealing(!noStealing).balanceInterval(Duration.ofMillis(20)).build()) {
            Client client = cluster.client();
            long t0 = System.nanoTime();
            ClusterFuture<Long> total = submit(client);
            NewStealEvents steals = new NewStealEvents();
            while (!total.isDone()) {
                try {
                    total.get(every, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // not yet: report progress
                }
                report(out, cluster, t0, steals);
            }
            long expected = (long) tasks * (tasks - 1) / 2;
            long got = total.get();
            report(out, cluster, t0, steals);
            ClusterStats s = cluster.stats();
            out.printf(Locale.ROOT, "result %d (%s) in %.0f ms; steals requested %d, confirmed %d, rejected %d,"
                            + " stale %d; %d bytes moved%n", got, got == expected ? "correct" : "WRONG, expected " + expected,
                    (System.nanoTime() - t0) / 1e6, s.stealsRequested(), s.stealsConfirmed(), s.stealsRejected(),
                    s.stealsStale(), s.bytesTransferred());
            out.flush();
            return got == expected ? 0 : 1;
        }
    }

    private ClusterFuture<Long> submit(Client client) {
        ClusterFuture<Integer> seed = client.scatter("seed", 0, 0);
        int ms = millis;
        List<ClusterFuture<Long>> level = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            long v = i;
            level.add(client.submit(TaskSpec.builder("map-" + i, args -> {
                Thread.sleep(ms);
                return (Integer) args.get(0) + v;
            }).dependsOn(seed).restrictions(Restrictions.loose(Set.of(0))).build()));
        }
        int n = 0;
        while (level.size() > 1) {
            List<ClusterFuture<Long>> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                next.add(client.submit("reduce-" + n++, args -> (Long) args.get(0) + (Long) args.get(1),
                        level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }

    /** Prints one progress line and the steal events not shown before. */
    private static void report(PrintWriter out, LocalCluster cluster, long t0, NewStealEvents steals) {
        ClusterStats s = cluster.stats();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%6.0f ms ", (System.nanoTime() - t0) / 1e6));
        for (ClusterStats.WorkerStats w : s.workers()) {
            line.append(String.format(Locale.ROOT, " | w%d done %4d queued %4d", w.id(), w.executed(), w.processing()));
        }
        out.println(line);
        List<StealEvent> events = steals.next(cluster.stealEvents());
        int shown = 0;
        for (StealEvent e : events) {
            if (e.outcome() != StealEvent.Outcome.REQUESTED && shown++ < 8) {
                out.println("           " + e);
            }
        }
        if (shown > 8) {
            out.println("           ... and " + (shown - 8) + " more steal replies");
        }
        if (steals.missedSome()) {
            out.println("           (the cluster keeps only its most recent steal events: some before these went unshown)");
        }
        out.flush();
    }

    /**
     * The steal events of the cluster's log that a previous call has not returned. The log keeps
     * only the most recent events ({@link LocalCluster#stealEvents()}), so a position in it does
     * not say which are new: once it was full, its size stayed the same and the demo showed no
     * steal event again, for the rest of a run that went on stealing. The newest event returned
     * is remembered instead, and what follows it is new.
     */
    static final class NewStealEvents {
        private StealEvent last;
        private boolean missed;

        /** The events of {@code log} (oldest first) after the newest one an earlier call returned. */
        List<StealEvent> next(List<StealEvent> log) {
            int from = 0;
            missed = false;
            if (last != null) {
                int at = log.size() - 1;
                while (at >= 0 && log.get(at) != last) {   // the same object: the log holds each event once
                    at--;
                }
                from = at + 1;
                missed = at < 0 && !log.isEmpty();         // it left the log, and maybe others after it
            }
            if (!log.isEmpty()) {
                last = log.get(log.size() - 1);
            }
            return log.subList(from, log.size());
        }

        /**
         * Whether the last call's newest event had left the log by this call: events between it and
         * those this call returned may have been dropped unseen.
         */
        boolean missedSome() {
            return missed;
        }
    }

    private void check(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }
}
