/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.async.AsyncTargets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The async harness's result, as tables or as JSON, in the style of {@link ActorReport}.
 *
 * @param workers worker threads of every runtime
 * @param warmupRounds rounds run and discarded
 * @param rounds measured rounds
 * @param elapsedMillis wall-clock time of the whole run, warm-up included
 * @param javaVersion the JVM that ran it
 * @param runtimes the runtimes compared, in column order
 * @param rows one per Tokio-style workload
 * @param contention one per contention workload
 */
public record AsyncReport(int workers, int warmupRounds, int rounds, long elapsedMillis, String javaVersion,
        List<Runtime> runtimes, List<Row> rows, List<ContentionRow> contention) {

    static final String RATIO_MEANING = "ratio = best AsyncRuntime throughput / best CompletableFuture throughput"
            + " (= best CF time / best async time); > 1 means AsyncRuntime is faster";
    static final String VT_RATIO_MEANING = "x vthreads = best AsyncRuntime throughput / virtual threads' throughput"
            + " (= vthreads time / best async time); > 1 means AsyncRuntime is faster";
    static final String CONTENTION_MEANING = "contention: medians over the measured runs ("
            + AsyncHarness.CONTENTION_RUNS_PER_ROUND + " per round) of each run's figures;"
            + " ws/hy = async-ws p99 / async-hybrid p99 (> 1 means HYBRID's tail is shorter);"
            + " thr hy/ws = async-hybrid throughput / async-ws throughput";

    /**
     * One runtime compared.
     *
     * @param id its id ({@code async-ws}, ...)
     * @param family {@code AsyncRuntime} or {@code CompletableFuture}
     * @param description what it is
     */
    public record Runtime(String id, String family, String description) implements ReportFormat.ComparedRuntime {
    }

    /**
     * One Tokio-style workload on every runtime.
     *
     * @param name the workload
     * @param description what exactly ran, with sizes
     * @param unit the unit of the values ({@code ms} per run)
     * @param operations operations (spawns, yields, round trips) in one run
     * @param perRuntime each runtime's samples, one per round, in {@link AsyncReport#runtimes} order
     * @param bestAsync the async runtime with the lowest median, or {@code null} if none ran
     * @param bestCf the CompletableFuture runtime with the lowest median, or {@code null} if none ran
     * @param ratio best CF median / best async median; NaN without one of the two
     * @param ratioSpread the per-round ratios
     * @param vtRatio virtual threads' median / best async median; NaN without one of the two
     * @param vtRatioSpread the per-round virtual-thread ratios (empty without one of the two)
     * @param note anything else worth saying; may be empty
     */
    public record Row(String name, String description, String unit, long operations, List<Stats> perRuntime,
            String bestAsync, String bestCf, double ratio, Stats ratioSpread, double vtRatio, Stats vtRatioSpread,
            String note) {
    }

    /**
     * One contention workload on one async runtime: each figure's distribution over the rounds.
     *
     * @param runtime the runtime id
     * @param throughput tasks per second
     * @param wakesP50 median task's wake count
     * @param wakesP99 99th percentile wake count
     * @param wakesMax largest wake count
     * @param completionP50Ms median completion time (spawn to done), ms
     * @param completionP99Ms 99th percentile completion time, ms
     * @param completionMaxMs longest completion time, ms
     */
    public record ContentionFigures(String runtime, Stats throughput, Stats wakesP50, Stats wakesP99, Stats wakesMax,
            Stats completionP50Ms, Stats completionP99Ms, Stats completionMaxMs) {
    }

    /**
     * One contention workload on the async runtimes.
     *
     * @param name the workload
     * @param description what exactly ran
     * @param tasks competing tasks
     * @param perRuntime the figures of each async runtime that ran it
     * @param wakesP99Ratio async-ws p99 wake count / async-hybrid's; NaN unless both ran
     * @param completionP99Ratio async-ws p99 completion time / async-hybrid's; NaN unless both ran
     * @param throughputRatio async-hybrid throughput / async-ws's; NaN unless both ran
     */
    public record ContentionRow(String name, String description, int tasks, List<ContentionFigures> perRuntime,
            double wakesP99Ratio, double completionP99Ratio, double throughputRatio) {
    }

    /** Whether a virtual-thread runtime ran: then the rows have a virtual-thread ratio. */
    public boolean hasVirtualThreads() {
        for (Runtime r : runtimes) {
            if (r.family().equals(AsyncTargets.Family.VT.label())) {
                return true;
            }
        }
        return false;
    }

    /** The report as aligned text tables, ending with a newline. */
    public String toTable() {
        boolean vt = hasVirtualThreads();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "Async, AsyncRuntime vs CompletableFuture on ForkJoinPool%s: %d workers, median of %d interleaved rounds"
                        + " after %d warm-up rounds, %.1f s, Java %s%n",
                vt ? " and virtual threads" : "", workers, rounds, warmupRounds, elapsedMillis / 1000.0, javaVersion));
        ReportFormat.legend(sb, runtimes);
        if (!rows.isEmpty()) {
            sb.append('\n').append(RATIO_MEANING).append('\n');
            if (vt) {
                sb.append(VT_RATIO_MEANING).append('\n');
            }
            sb.append(ReportFormat.SPREAD_MEANING).append('\n');
            List<String> head = new ArrayList<>(List.of("workload"));
            List<Boolean> right = new ArrayList<>(List.of(false));
            ReportFormat.runtimeColumns(head, right, runtimes);
            head.addAll(List.of("best async", "best CF", "ratio", "spread"));
            right.addAll(List.of(false, false, true, true));
            if (vt) {
                head.addAll(List.of("x vthreads", "spread"));
                right.addAll(List.of(true, true));
            }
            head.add("note");
            right.add(false);
            List<String[]> lines = new ArrayList<>();
            lines.add(head.toArray(new String[0]));
            for (Row r : rows) {
                List<String> l = new ArrayList<>(List.of(r.name()));
                ReportFormat.runtimeCells(l, r.perRuntime(), r.unit());
                l.add(ReportFormat.orDash(r.bestAsync()));
                l.add(ReportFormat.orDash(r.bestCf()));
                l.add(ReportFormat.ratio(r.ratio()));
                l.add(ReportFormat.spread(r.ratioSpread()));
                if (vt) {
                    l.add(ReportFormat.ratio(r.vtRatio()));
                    l.add(ReportFormat.spread(r.vtRatioSpread()));
                }
                l.add(r.note());
                lines.add(l.toArray(new String[0]));
            }
            TextTable.append(sb, lines, right);
        }
        if (!contention.isEmpty()) {
            sb.append('\n').append(CONTENTION_MEANING).append('\n');
            for (ContentionRow c : contention) {
                sb.append(c.description()).append('\n');
            }
            List<Boolean> right = List.of(false, false, true, true, true, true, true, true, true);
            List<String[]> lines = new ArrayList<>();
            lines.add(new String[] {"workload", "runtime", "tasks/s", "wakes p50", "p99", "max",
                "completion p50", "p99", "max"});
            for (ContentionRow c : contention) {
                for (ContentionFigures f : c.perRuntime()) {
                    lines.add(new String[] {c.name(), f.runtime(), String.format(Locale.ROOT, "%.0f", f.throughput().median()),
                        count(f.wakesP50()), count(f.wakesP99()), count(f.wakesMax()),
                        ReportFormat.value(f.completionP50Ms().median(), "ms"),
                        ReportFormat.value(f.completionP99Ms().median(), "ms"),
                        ReportFormat.value(f.completionMaxMs().median(), "ms")});
                }
                lines.add(new String[] {c.name(), "ws/hy", "thr hy/ws " + ReportFormat.ratio(c.throughputRatio()), "",
                    ReportFormat.ratio(c.wakesP99Ratio()), "", "", ReportFormat.ratio(c.completionP99Ratio()), ""});
            }
            TextTable.append(sb, lines, right);
        }
        return sb.toString();
    }

    private static String count(Stats s) {
        return Double.isNaN(s.median()) ? "-" : String.format(Locale.ROOT, "%.0f", s.median());
    }

    /** The report as a JSON object, ending with a newline. */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        ReportFormat.header(sb, "async", workers, warmupRounds, rounds, elapsedMillis, javaVersion, RATIO_MEANING);
        sb.append("  \"vtRatioDefinition\": ").append(Report.str(VT_RATIO_MEANING)).append(",\n");
        sb.append("  \"contentionDefinition\": ").append(Report.str(CONTENTION_MEANING)).append(",\n");
        ReportFormat.runtimes(sb, runtimes);
        sb.append("  \"results\": [");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            ReportFormat.workload(sb, r.name(), r.description(), r.unit(), "operations", r.operations(), runtimes,
                    r.perRuntime());
            ReportFormat.bestAndRatio(sb, "bestAsync", r.bestAsync(), "bestCf", r.bestCf(), r.ratio(), r.ratioSpread());
            sb.append(",\n     \"vtRatio\": ").append(Report.num(r.vtRatio()))
                    .append(", \"vtRatioPerRound\": ").append(ReportFormat.stats(r.vtRatioSpread()))
                    .append(", \"note\": ").append(Report.str(r.note())).append('}');
        }
        sb.append(rows.isEmpty() ? "],\n" : "\n  ],\n");
        sb.append("  \"contention\": [");
        for (int i = 0; i < contention.size(); i++) {
            ContentionRow c = contention.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"workload\": ").append(Report.str(c.name()))
                    .append(", \"description\": ").append(Report.str(c.description()))
                    .append(", \"tasks\": ").append(c.tasks())
                    .append(",\n     \"runtimes\": {");
            for (int k = 0; k < c.perRuntime().size(); k++) {
                ContentionFigures f = c.perRuntime().get(k);
                sb.append(k == 0 ? "\n" : ",\n").append("       ").append(Report.str(f.runtime())).append(": {")
                        .append("\"tasksPerSecond\": ").append(ReportFormat.stats(f.throughput()))
                        .append(", \"wakesP50\": ").append(ReportFormat.stats(f.wakesP50()))
                        .append(", \"wakesP99\": ").append(ReportFormat.stats(f.wakesP99()))
                        .append(", \"wakesMax\": ").append(ReportFormat.stats(f.wakesMax()))
                        .append(", \"completionP50Ms\": ").append(ReportFormat.stats(f.completionP50Ms()))
                        .append(", \"completionP99Ms\": ").append(ReportFormat.stats(f.completionP99Ms()))
                        .append(", \"completionMaxMs\": ").append(ReportFormat.stats(f.completionMaxMs())).append('}');
            }
            sb.append("},\n     \"wakesP99Ratio\": ").append(Report.num(c.wakesP99Ratio()))
                    .append(", \"completionP99Ratio\": ").append(Report.num(c.completionP99Ratio()))
                    .append(", \"throughputRatio\": ").append(Report.num(c.throughputRatio())).append('}');
        }
        sb.append(contention.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        return sb.toString();
    }
}
