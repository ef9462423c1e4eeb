/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import dev.spindle.bench.quick.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The echo benchmark's result, as a text table or as JSON.
 *
 * @param workers worker threads of every server
 * @param connections concurrent client connections
 * @param clientThreads client threads driving them
 * @param payloadBytes bytes per request
 * @param seconds measured seconds per run
 * @param settleSeconds unmeasured seconds at the start of each run
 * @param warmupRounds rounds run and discarded
 * @param rounds measured rounds
 * @param elapsedMillis wall-clock time of the whole run
 * @param javaVersion the JVM that ran it
 * @param cores available processors
 * @param servers one row per selected server, in the order asked for
 * @param spindleVsNetty Spindle throughput / Netty throughput in each round; empty unless both ran
 * @param spindleVsVirtualThreads Spindle throughput / virtual-thread throughput in each round;
 *        empty unless both ran
 */
public record EchoReport(int workers, int connections, int clientThreads, int payloadBytes, double seconds,
        double settleSeconds, int warmupRounds, int rounds, long elapsedMillis, String javaVersion, int cores,
        List<ServerRow> servers, Stats spindleVsNetty, Stats spindleVsVirtualThreads) {

    static final String RATIO_MEANING = "x netty, x vthreads = this server's requests/s / that server's"
            + " (medians over the rounds); > 1 means this server is faster";

    /**
     * One server's figures.
     *
     * @param id the server id
     * @param description what it ran
     * @param unavailable why it did not run ({@code "needs JDK 21+"}), or null if it ran
     * @param requestsPerSecond its requests/s in each measured round
     * @param requests requests measured over all rounds
     * @param p50Micros median latency over every measured request, microseconds
     * @param p99Micros 99th percentile latency, microseconds
     * @param p999Micros 99.9th percentile latency, microseconds
     */
    public record ServerRow(String id, String description, String unavailable, Stats requestsPerSecond,
            long requests, double p50Micros, double p99Micros, double p999Micros) {

        static ServerRow unavailable(String id, String description, String reason) {
            return new ServerRow(id, description, reason, Stats.EMPTY, 0, Double.NaN, Double.NaN, Double.NaN);
        }
    }

    /** The row of server {@code id}, or null if it was not selected. */
    public ServerRow server(String id) {
        for (ServerRow r : servers) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        return null;
    }

    /** Median requests/s of {@code a} / that of {@code b}; NaN unless both ran. */
    public double ratio(String a, String b) {
        ServerRow ra = server(a);
        ServerRow rb = server(b);
        return ra == null || rb == null ? Double.NaN
                : ra.requestsPerSecond().median() / rb.requestsPerSecond().median();
    }

    /**
     * p99 latency of {@code a} / that of {@code b}; NaN unless both ran ({@code < 1} means {@code a}'s
     * p99 is lower).
     */
    public double p99Ratio(String a, String b) {
        ServerRow ra = server(a);
        ServerRow rb = server(b);
        return ra == null || rb == null ? Double.NaN : ra.p99Micros() / rb.p99Micros();
    }

    /** The report as an aligned text table, ending with a newline. */
    public String toTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "Echo servers, closed-loop loopback load: %d connections x %d-byte requests from %d client"
                        + " thread(s); %d workers; %s s measured per run after %s s settling; median of %d"
                        + " interleaved rounds after %d warm-up; %.1f s; Java %s; %d cores%n",
                connections, payloadBytes, clientThreads, workers, plain(seconds), plain(settleSeconds), rounds,
                warmupRounds, elapsedMillis / 1000.0, javaVersion, cores));
        for (ServerRow r : servers) {
            sb.append(r.id()).append(" = ").append(r.description()).append('\n');
        }
        sb.append('\n').append(RATIO_MEANING).append('\n');
        sb.append("+-x% = half the interquartile range of the rounds; latency = all measured requests of all rounds\n");
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"server", "requests/s", "", "p50", "p99", "p99.9", "x netty", "x vthreads"});
        for (ServerRow r : servers) {
            if (r.unavailable() != null) {
                lines.add(new String[] {r.id(), r.unavailable(), "", "", "", "", "", ""});
                continue;
            }
            Stats s = r.requestsPerSecond();
            lines.add(new String[] {r.id(), String.format(Locale.ROOT, "%.0f", s.median()), spread(s),
                micros(r.p50Micros()), micros(r.p99Micros()), micros(r.p999Micros()),
                ratioText(ratio(r.id(), EchoServers.NETTY)), ratioText(ratio(r.id(), EchoServers.VIRTUAL_THREADS))});
        }
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (int li = 0; li < lines.size(); li++) {
            StringBuilder line = new StringBuilder();
            String[] l = lines.get(li);
            for (int i = 0; i < l.length; i++) {
                boolean left = i == 0 || li == 0 || servers.get(li - 1).unavailable() != null;
                line.append(pad(l[i], width[i], !left)).append("  ");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "spindle/netty throughput: %s (rounds %s); spindle/virtual-threads: %s (rounds %s)%n",
                ratioText(ratio(EchoServers.SPINDLE, EchoServers.NETTY)), range(spindleVsNetty),
                ratioText(ratio(EchoServers.SPINDLE, EchoServers.VIRTUAL_THREADS)), range(spindleVsVirtualThreads)));
        return sb.toString();
    }

    private static String pad(String s, int width, boolean right) {
        String p = " ".repeat(width - s.length());
        return right ? p + s : s + p;
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String spread(Stats s) {
        double f = s.halfIqrFraction();
        return Double.isNaN(f) || Double.isInfinite(f) ? "" : String.format(Locale.ROOT, "+-%.0f%%", 100 * f);
    }

    private static String micros(double us) {
        if (Double.isNaN(us)) {
            return "-";
        }
        return us < 1000 ? String.format(Locale.ROOT, "%.0f us", us) : String.format(Locale.ROOT, "%.2f ms", us / 1e3);
    }

    private static String ratioText(double r) {
        return Double.isNaN(r) || Double.isInfinite(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static String range(Stats s) {
        return s.n() == 0 ? "n/a" : ratioText(s.min()) + "-" + ratioText(s.max());
    }

    /** The report as a JSON object, ending with a newline. */
    public String toJson() {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append("  \"suite\": \"echo\",\n");
        field(sb, "workers", Integer.toString(workers));
        field(sb, "connections", Integer.toString(connections));
        field(sb, "clientThreads", Integer.toString(clientThreads));
        field(sb, "payloadBytes", Integer.toString(payloadBytes));
        field(sb, "seconds", number(seconds));
        field(sb, "settleSeconds", number(settleSeconds));
        field(sb, "warmupRounds", Integer.toString(warmupRounds));
        field(sb, "rounds", Integer.toString(rounds));
        field(sb, "elapsedMillis", Long.toString(elapsedMillis));
        field(sb, "java", text(javaVersion));
        field(sb, "cores", Integer.toString(cores));
        sb.append("  \"servers\": [");
        for (int i = 0; i < servers.size(); i++) {
            ServerRow r = servers.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("    {\"id\": ").append(text(r.id()))
                    .append(", \"description\": ").append(text(r.description()))
                    .append(", \"unavailable\": ").append(r.unavailable() == null ? "null" : text(r.unavailable()))
                    .append(",\n     \"requestsPerSecond\": ").append(stats(r.requestsPerSecond()))
                    .append(",\n     \"requests\": ").append(r.requests())
                    .append(", \"p50Micros\": ").append(number(r.p50Micros()))
                    .append(", \"p99Micros\": ").append(number(r.p99Micros()))
                    .append(", \"p999Micros\": ").append(number(r.p999Micros()))
                    .append(",\n     \"xNetty\": ").append(number(ratio(r.id(), EchoServers.NETTY)))
                    .append(", \"xVirtualThreads\": ").append(number(ratio(r.id(), EchoServers.VIRTUAL_THREADS)))
                    .append(", \"p99VsNetty\": ").append(number(p99Ratio(r.id(), EchoServers.NETTY))).append('}');
        }
        sb.append(servers.isEmpty() ? "],\n" : "\n  ],\n");
        field(sb, "spindleVsNetty", number(ratio(EchoServers.SPINDLE, EchoServers.NETTY)));
        field(sb, "spindleVsNettyPerRound", stats(spindleVsNetty));
        field(sb, "spindleVsVirtualThreads", number(ratio(EchoServers.SPINDLE, EchoServers.VIRTUAL_THREADS)));
        sb.append("  \"spindleVsVirtualThreadsPerRound\": ").append(stats(spindleVsVirtualThreads)).append("\n}\n");
        return sb.toString();
    }

    private static void field(StringBuilder sb, String name, String json) {
        sb.append("  \"").append(name).append("\": ").append(json).append(",\n");
    }

    private static String stats(Stats s) {
        return String.format(Locale.ROOT, "{\"n\": %d, \"median\": %s, \"q1\": %s, \"q3\": %s, \"min\": %s, \"max\": %s}",
                s.n(), number(s.median()), number(s.q1()), number(s.q3()), number(s.min()), number(s.max()));
    }

    private static String number(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "null";
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    static String text(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        s.chars().forEach(c -> {
            if (c == '"' || c == '\\') {
                sb.append('\\').append((char) c);
            } else if (c < 0x20) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                sb.append((char) c);
            }
        });
        return sb.append('"').toString();
    }
}
