/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import dev.spindle.bench.quick.Progress;
import dev.spindle.bench.quick.Stats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The echo-server benchmark ({@code spindle bench echo}): the {@link EchoServers} under the same
 * closed-loop {@link EchoLoad}, interleaved round by round.
 *
 * <p>Every selected server that can run on this JVM is opened once and stays open. Each round
 * runs one load per server, the order rotating from round to round so that no server always goes
 * first or last; each run opens fresh connections, settles for {@link Options#settleSeconds}
 * (checked, not measured) and measures for {@link Options#seconds}. Warm-up rounds run the same
 * way and are discarded. A server's requests/s is the median over the measured rounds; its
 * latency percentiles are those of every request measured in all its rounds (the rounds'
 * histograms merged). Every echo is checked, so a broken server fails the run.
 */
public final class EchoHarness {

    public static final int DEFAULT_ROUNDS = 5;
    public static final int DEFAULT_WARMUP_ROUNDS = 1;
    public static final int DEFAULT_CONNECTIONS = 64;
    public static final int DEFAULT_PAYLOAD_BYTES = 64;
    public static final double DEFAULT_SECONDS = 2;
    public static final double DEFAULT_SETTLE_SECONDS = 0.25;

    /** Everything a run can be told; each setter checks its value. */
    public static final class Options {
        List<String> servers = EchoServers.ids();
        int workers = Runtime.getRuntime().availableProcessors();
        int connections = DEFAULT_CONNECTIONS;
        int clientThreads = defaultClientThreads();
        int payloadBytes = DEFAULT_PAYLOAD_BYTES;
        double seconds = DEFAULT_SECONDS;
        double settleSeconds = DEFAULT_SETTLE_SECONDS;
        int rounds = DEFAULT_ROUNDS;
        int warmupRounds = DEFAULT_WARMUP_ROUNDS;
        Progress progress = Progress.none();

        /** Half the processors, at least one: the client shares the machine with the server. */
        public static int defaultClientThreads() {
            return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        }

        /**
         * Server ids, in report order.
         *
         * @throws IllegalArgumentException for an unknown or repeated id, naming the valid ones, an
         *     empty list, or a list of servers none of which can run on this JVM (a run would
         *     measure nothing), naming why
         */
        public Options servers(List<String> ids) {
            Objects.requireNonNull(ids, "servers");
            if (ids.isEmpty()) {
                throw new IllegalArgumentException("no echo server selected; valid: "
                        + String.join(", ", EchoServers.ids()));
            }
            List<String> unavailable = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                String reason = EchoServers.unavailableReason(ids.get(i));      // checks the id
                if (ids.subList(0, i).contains(ids.get(i))) {
                    throw new IllegalArgumentException("echo server '" + ids.get(i) + "' given twice");
                }
                if (reason != null) {
                    unavailable.add(ids.get(i) + " (" + reason + ")");
                }
            }
            if (unavailable.size() == ids.size()) {
                throw new IllegalArgumentException("no selected echo server can run on this JVM: "
                        + String.join(", ", unavailable));
            }
            this.servers = List.copyOf(ids);
            return this;
        }

        public Options workers(int n) {
            workers = range("workers", n, 1, 0x7fff);
            return this;
        }

        public Options connections(int n) {
            connections = range("connections", n, 1, 10_000);
            return this;
        }

        public Options clientThreads(int n) {
            clientThreads = range("client threads", n, 1, 1024);
            return this;
        }

        public Options payloadBytes(int n) {
            payloadBytes = range("payload bytes", n, 1, 1 << 20);
            return this;
        }

        /**
         * Measured seconds per run (at least a nanosecond, at most 3600). The load measures in whole
         * nanoseconds: a positive value below one would be a measured period of 0, refused only
         * when the run starts, as a failed run instead of a bad argument.
         */
        public Options seconds(double s) {
            if (!(s > 0 && s <= 3600)) {
                throw new IllegalArgumentException("seconds must be more than 0 and at most 3600, was " + s);
            }
            if (s * 1e9 < 1) {
                throw new IllegalArgumentException("seconds must be at least 1e-9 (the load measures whole"
                        + " nanoseconds), was " + s);
            }
            seconds = s;
            return this;
        }

        /** Unmeasured seconds at the start of each run, on fresh connections (0 to 60). */
        public Options settleSeconds(double s) {
            if (!(s >= 0 && s <= 60)) {
                throw new IllegalArgumentException("settle seconds must be between 0 and 60, was " + s);
            }
            settleSeconds = s;
            return this;
        }

        public Options rounds(int n) {
            rounds = range("rounds", n, 1, 100_000);
            return this;
        }

        public Options warmupRounds(int n) {
            warmupRounds = range("warm-up rounds", n, 0, 100_000);
            return this;
        }

        public Options progress(Progress p) {
            progress = Objects.requireNonNull(p, "progress");
            return this;
        }

        private static int range(String what, int v, int min, int max) {
            if (v < min || v > max) {
                throw new IllegalArgumentException(what + " must be between " + min + " and " + max + ", was " + v);
            }
            return v;
        }

        EchoLoad.Settings load() {
            return new EchoLoad.Settings(connections, clientThreads, payloadBytes,
                    Duration.ofNanos((long) (settleSeconds * 1e9)), Duration.ofNanos((long) (seconds * 1e9)));
        }
    }

    private final Options o;

    public EchoHarness(Options options) {
        this.o = Objects.requireNonNull(options, "options");
    }

    /**
     * Runs every selected server and returns the report.
     *
     * @throws EchoCheckException if a server breaks the echo contract
     */
    public EchoReport run() {
        long t0 = System.nanoTime();
        EchoLoad.Settings load = o.load();
        List<String> ids = new ArrayList<>();
        for (String id : o.servers) {
            if (EchoServers.unavailableReason(id) == null) {
                ids.add(id);
            }
        }
        int n = ids.size();
        List<List<Double>> rps = new ArrayList<>();
        List<Histogram> latency = new ArrayList<>();
        List<Long> requests = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            rps.add(new ArrayList<>());
            latency.add(new Histogram(3));
            requests.add(0L);
        }
        Progress progress = o.progress;
        progress.start((o.warmupRounds + o.rounds) * n);
        List<EchoServer> servers = new ArrayList<>();
        try {
            for (String id : ids) {
                servers.add(EchoServers.open(id, o.workers));
            }
            for (int round = 0; round < o.warmupRounds + o.rounds; round++) {
                boolean warm = round < o.warmupRounds;
                progress.phase(warm ? "warm-up round " + (round + 1) + "/" + o.warmupRounds
                        : "round " + (round - o.warmupRounds + 1) + "/" + o.rounds);
                for (int i = 0; i < n; i++) {
                    int k = (i + round) % n;
                    progress.step(ids.get(k));
                    EchoLoad.Result r = EchoLoad.run(servers.get(k).address(), load);
                    if (!warm) {
                        rps.get(k).add(r.requestsPerSecond());
                        latency.get(k).add(r.latencyNanos());
                        requests.set(k, requests.get(k) + r.requests());
                    }
                }
            }
        } finally {
            servers.forEach(EchoServer::close);
        }
        progress.finish();

        List<EchoReport.ServerRow> rows = new ArrayList<>();
        for (String id : o.servers) {
            int k = ids.indexOf(id);
            String description = EchoServers.description(id, o.workers);
            if (k < 0) {
                rows.add(EchoReport.ServerRow.unavailable(id, description, EchoServers.unavailableReason(id)));
            } else {
                Histogram h = latency.get(k);
                rows.add(new EchoReport.ServerRow(id, description, null, Stats.of(rps.get(k)), requests.get(k),
                        micros(h, 50), micros(h, 99), micros(h, 99.9)));
            }
        }
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        return new EchoReport(o.workers, o.connections, Math.min(o.clientThreads, o.connections), o.payloadBytes,
                o.seconds, o.settleSeconds, o.warmupRounds, o.rounds, elapsed, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), rows,
                perRound(ids, rps, EchoServers.SPINDLE, EchoServers.NETTY),
                perRound(ids, rps, EchoServers.SPINDLE, EchoServers.VIRTUAL_THREADS));
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e3;
    }

    /** Throughput of {@code a} / throughput of {@code b} in each measured round; empty unless both ran. */
    private static Stats perRound(List<String> ids, List<List<Double>> rps, String a, String b) {
        int ka = ids.indexOf(a);
        int kb = ids.indexOf(b);
        if (ka < 0 || kb < 0) {
            return Stats.EMPTY;
        }
        List<Double> ratios = new ArrayList<>();
        for (int r = 0; r < rps.get(ka).size(); r++) {
            ratios.add(rps.get(ka).get(r) / rps.get(kb).get(r));
        }
        return Stats.of(ratios);
    }
}
