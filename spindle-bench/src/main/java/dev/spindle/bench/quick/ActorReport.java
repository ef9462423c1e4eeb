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
    public record Runtime(String id, String family, String description) {
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
        sb.append("spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's samples\n");
        for (Runtime r : runtimes) {
            sb.append(r.id()).append(" = ").append(r.description()).append('\n');
        }
        sb.append('\n');
        List<String> head = new ArrayList<>(List.of("workload"));
        List<Boolean> right = new ArrayList<>(List.of(false));
        for (Runtime r : runtimes) {
            head.add(r.id());
            head.add("");
            right.add(true);
            right.add(true);
        }
        head.addAll(List.of("best Spindle", "best Pekko", "ratio", "spread", "note"));
        right.addAll(List.of(false, false, true, true, false));
        List<String[]> lines = new ArrayList<>();
        lines.add(head.toArray(new String[0]));
        for (Row r : rows) {
            List<String> l = new ArrayList<>(List.of(r.name()));
            for (Stats s : r.perRuntime()) {
                l.add(value(s.median(), r.unit()));
                l.add(iqr(s));
            }
            l.add(r.bestSpindle() == null ? "-" : r.bestSpindle());
            l.add(r.bestPekko() == null ? "-" : r.bestPekko());
            l.add(ratio(r.ratio()));
            l.add(Double.isNaN(r.ratioSpread().min()) ? "-" : ratio(r.ratioSpread().min()) + "-" + ratio(r.ratioSpread().max()));
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

    private static String value(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        String num;
        if (a >= 100) {
            num = String.format(Locale.ROOT, "%.0f", v);
        } else if (a >= 10) {
            num = String.format(Locale.ROOT, "%.1f", v);
        } else if (a >= 0.1 || a == 0) {
            num = String.format(Locale.ROOT, "%.2f", v);
        } else {
            num = String.format(Locale.ROOT, "%.3f", v);
        }
        return num + " " + unit;
    }

    private static String iqr(Stats s) {
        double f = s.halfIqrFraction();
        if (Double.isNaN(f) || Double.isInfinite(f)) {
            return "";
        }
        return String.format(Locale.ROOT, "+-%.0f%%", 100 * f);
    }

    private static String ratio(double r) {
        return Double.isNaN(r) || Double.isInfinite(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r);
    }

    /** The report as a JSON object, ending with a newline. */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n");
        sb.append("  \"suite\": \"actors\",\n");
        sb.append("  \"workers\": ").append(workers).append(",\n");
        sb.append("  \"warmupRounds\": ").append(warmupRounds).append(",\n");
        sb.append("  \"rounds\": ").append(rounds).append(",\n");
        sb.append("  \"elapsedMillis\": ").append(elapsedMillis).append(",\n");
        sb.append("  \"java\": ").append(Report.str(javaVersion)).append(",\n");
        sb.append("  \"ratioDefinition\": ").append(Report.str(RATIO_MEANING)).append(",\n");
        sb.append("  \"runtimes\": [");
        for (int i = 0; i < runtimes.size(); i++) {
            Runtime r = runtimes.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"id\": ").append(Report.str(r.id())).append(", \"family\": ").append(Report.str(r.family()))
                    .append(", \"description\": ").append(Report.str(r.description())).append('}');
        }
        sb.append("\n  ],\n");
        sb.append("  \"results\": [");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"workload\": ").append(Report.str(r.name()))
                    .append(", \"description\": ").append(Report.str(r.description()))
                    .append(", \"unit\": ").append(Report.str(r.unit()))
                    .append(", \"messages\": ").append(r.messages())
                    .append(",\n     \"runtimes\": {");
            for (int k = 0; k < runtimes.size(); k++) {
                sb.append(k == 0 ? "" : ", ").append(Report.str(runtimes.get(k).id())).append(": ")
                        .append(stats(r.perRuntime().get(k)));
            }
            sb.append("},\n     \"bestSpindle\": ").append(r.bestSpindle() == null ? "null" : Report.str(r.bestSpindle()))
                    .append(", \"bestPekko\": ").append(r.bestPekko() == null ? "null" : Report.str(r.bestPekko()))
                    .append(", \"ratio\": ").append(Report.num(r.ratio()))
                    .append(", \"ratioPerRound\": ").append(stats(r.ratioSpread()))
                    .append(", \"note\": ").append(Report.str(r.note())).append('}');
        }
        sb.append("\n  ]\n}\n");
        return sb.toString();
    }

    private static String stats(Stats s) {
        return "{\"n\": " + s.n() + ", \"median\": " + Report.num(s.median()) + ", \"q1\": " + Report.num(s.q1())
                + ", \"q3\": " + Report.num(s.q3()) + ", \"min\": " + Report.num(s.min()) + ", \"max\": "
                + Report.num(s.max()) + "}";
    }
}
