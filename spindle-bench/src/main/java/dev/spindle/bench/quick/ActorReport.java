/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The actor harness's result, as a table or as JSON, in the style of {@link Report}.
 *
 * @param workers worker threads of every runtime
 * @param warmupRounds rounds run and discarded
 * @param rounds measured rounds
 * @param elapsedMillis wall-clock time of the whole run, warm-up included
 * @param javaVersion the JVM that ran it
 * @param runtimes the runtimes compared, in column order
 * @param rows one per workload
 */
public record ActorReport(int workers, int warmupRounds, int rounds, long elapsedMillis, String javaVersion,
        List<Runtime> runtimes, List<Row> rows) {

    static final String RATIO_MEANING = "ratio = best Spindle throughput / best Pekko throughput"
            + " (= best Pekko time / best Spindle time); > 1 means Spindle is faster; n/a while no Spindle runtime ran";

    /**
     * One runtime compared.
     *
     * @param id its id ({@code pekko-t5}, ...)
     * @param family {@code Spindle} or {@code Pekko}
     * @param description what it is
     */
    public record Runtime(String id, String family, String description) implements ReportFormat.ComparedRuntime {
    }

    /**
     * One workload on every runtime.
     *
     * @param name the workload
     * @param description what exactly ran, with sizes
     * @param unit the unit of the values ({@code ms} per run)
     * @param messages messages sent in one run
     * @param perRuntime each runtime's samples, one per round, in {@link ActorReport#runtimes} order
     * @param bestSpindle the Spindle runtime with the lowest median, or {@code null} if none ran
     * @param bestPekko the Pekko runtime with the lowest median, or {@code null} if none ran
     * @param ratio best Pekko median / best Spindle median; NaN without one of the two
     * @param ratioSpread the per-round ratios (best Pekko time / best Spindle time in each round)
     * @param note anything else worth saying; may be empty
     */
    public record Row(String name, String description, String unit, long messages, List<Stats> perRuntime,
            String bestSpindle, String bestPekko, double ratio, Stats ratioSpread, String note) {
    }

    /** The report as an aligned text table, ending with a newline. */
    public String toTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "Actors, Spindle vs Pekko: %d workers, median of %d interleaved rounds after %d warm-up rounds, %.1f s, Java %s%n",
                workers, rounds, warmupRounds, elapsedMillis / 1000.0, javaVersion));
        sb.append(RATIO_MEANING).append('\n');
        sb.append(ReportFormat.SPREAD_MEANING).append('\n');
        ReportFormat.legend(sb, runtimes);
        sb.append('\n');
        List<String> head = new ArrayList<>(List.of("workload"));
        List<Boolean> right = new ArrayList<>(List.of(false));
        ReportFormat.runtimeColumns(head, right, runtimes);
        head.addAll(List.of("best Spindle", "best Pekko", "ratio", "spread", "note"));
        right.addAll(List.of(false, false, true, true, false));
        List<String[]> lines = new ArrayList<>();
        lines.add(head.toArray(new String[0]));
        for (Row r : rows) {
            List<String> l = new ArrayList<>(List.of(r.name()));
            ReportFormat.runtimeCells(l, r.perRuntime(), r.unit());
            l.add(ReportFormat.orDash(r.bestSpindle()));
            l.add(ReportFormat.orDash(r.bestPekko()));
            l.add(ReportFormat.ratio(r.ratio()));
            l.add(ReportFormat.spread(r.ratioSpread()));
            l.add(r.note());
            lines.add(l.toArray(new String[0]));
        }
        int[] gaps = new int[head.size()];
        for (int i = 0; i < gaps.length; i++) {
            boolean iqrColumn = i > 0 && i <= 2 * runtimes.size() && i % 2 == 0;
            gaps[i] = i == 0 || iqrColumn || i > 2 * runtimes.size() ? 2 : 1;
        }
        TextTable.append(sb, lines, right, gaps);
        return sb.toString();
    }

    /** The report as a JSON object, ending with a newline. */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        ReportFormat.header(sb, "actors", workers, warmupRounds, rounds, elapsedMillis, javaVersion, RATIO_MEANING);
        ReportFormat.runtimes(sb, runtimes);
        sb.append("  \"results\": [");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            ReportFormat.workload(sb, r.name(), r.description(), r.unit(), "messages", r.messages(), runtimes,
                    r.perRuntime());
            ReportFormat.bestAndRatio(sb, "bestSpindle", r.bestSpindle(), "bestPekko", r.bestPekko(), r.ratio(),
                    r.ratioSpread());
            sb.append(", \"note\": ").append(Report.str(r.note())).append('}');
        }
        sb.append("\n  ]\n}\n");
        return sb.toString();
    }
}
