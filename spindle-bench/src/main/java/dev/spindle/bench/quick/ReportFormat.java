/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.util.List;
import java.util.Locale;

/**
 * The formatting that the harnesses' reports ({@link Report}, {@link ActorReport},
 * {@link AsyncReport}, and {@link ClusterReport} for its statistics) share, written once so
 * that their tables and JSON cannot drift apart: {@code compare-runs.py}, {@code ab.sh} and the
 * docs read them all the same way. The JSON strings and numbers themselves are
 * {@link Report#str} and {@link Report#num}, which stay public for the CLI.
 */
final class ReportFormat {

    /** The legend line under every comparison table's header. */
    static final String SPREAD_MEANING =
            "spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's samples";

    private ReportFormat() {
    }

    /**
     * A runtime that a report compares, as its tables and JSON name it. The reports keep their
     * own public records (their harnesses and tests build them); this is what those records
     * have in common.
     */
    interface ComparedRuntime {
        /** Its id, the column head ({@code pekko-t5}, {@code async-ws}, ...). */
        String id();

        /** The family it belongs to ({@code Spindle}, {@code Pekko}, {@code AsyncRuntime}, ...). */
        String family();

        /** What it is. */
        String description();
    }

    // ------------------------------------------------------------------ text

    /**
     * A median with its unit, to three significant figures or so (fewer decimals the larger
     * it is); {@code -} for NaN (nothing measured).
     */
    static String value(double v, String unit) {
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

    /** Half the interquartile range as a fraction of the median, {@code +-x%}; empty where undefined. */
    static String iqr(Stats s) {
        double f = s.halfIqrFraction();
        if (Double.isNaN(f) || Double.isInfinite(f)) {
            return "";
        }
        return String.format(Locale.ROOT, "+-%.0f%%", 100 * f);
    }

    /** A ratio to two decimals; {@code n/a} where one side is missing (NaN) or zero (infinite). */
    static String ratio(double r) {
        return Double.isNaN(r) || Double.isInfinite(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r);
    }

    /** The per-round ratios' range, {@code min-max}; {@code -} where there were none. */
    static String spread(Stats perRound) {
        return Double.isNaN(perRound.min()) ? "-" : ratio(perRound.min()) + "-" + ratio(perRound.max());
    }

    /** A best runtime's id, {@code -} where none of its family ran. */
    static String orDash(String id) {
        return id == null ? "-" : id;
    }

    /** One line {@code id = description} per runtime. */
    static void legend(StringBuilder sb, List<? extends ComparedRuntime> runtimes) {
        for (ComparedRuntime r : runtimes) {
            sb.append(r.id()).append(" = ").append(r.description()).append('\n');
        }
    }

    /** Two columns per runtime, its median (headed by its id) and its spread, both aligned right. */
    static void runtimeColumns(List<String> head, List<Boolean> right, List<? extends ComparedRuntime> runtimes) {
        for (ComparedRuntime r : runtimes) {
            head.add(r.id());
            head.add("");
            right.add(true);
            right.add(true);
        }
    }

    /** The cells of {@link #runtimeColumns}: each runtime's median and spread. */
    static void runtimeCells(List<String> line, List<Stats> perRuntime, String unit) {
        for (Stats s : perRuntime) {
            line.add(value(s.median(), unit));
            line.add(iqr(s));
        }
    }

    // ------------------------------------------------------------------ JSON

    /**
     * Opens a report's JSON object with the fields every comparison report starts with.
     *
     * @param suite the {@code suite} field, or {@code null} for none (the quick report's JSON
     *     has never had one)
     */
    static void header(StringBuilder sb, String suite, int workers, int warmupRounds, int rounds,
            long elapsedMillis, String javaVersion, String ratioDefinition) {
        sb.append("{\n");
        if (suite != null) {
            sb.append("  \"suite\": ").append(Report.str(suite)).append(",\n");
        }
        sb.append("  \"workers\": ").append(workers).append(",\n");
        sb.append("  \"warmupRounds\": ").append(warmupRounds).append(",\n");
        sb.append("  \"rounds\": ").append(rounds).append(",\n");
        sb.append("  \"elapsedMillis\": ").append(elapsedMillis).append(",\n");
        sb.append("  \"java\": ").append(Report.str(javaVersion)).append(",\n");
        sb.append("  \"ratioDefinition\": ").append(Report.str(ratioDefinition)).append(",\n");
    }

    /** The {@code runtimes} field: the runtimes compared, one object a line. */
    static void runtimes(StringBuilder sb, List<? extends ComparedRuntime> runtimes) {
        sb.append("  \"runtimes\": [");
        for (int i = 0; i < runtimes.size(); i++) {
            ComparedRuntime r = runtimes.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"id\": ").append(Report.str(r.id())).append(", \"family\": ").append(Report.str(r.family()))
                    .append(", \"description\": ").append(Report.str(r.description())).append('}');
        }
        sb.append("\n  ],\n");
    }

    /**
     * Opens a workload's object in {@code results}: its name, description, unit, size (as
     * {@code countName}), and its samples on each runtime, keyed by runtime id in the runtimes'
     * order.
     */
    static void workload(StringBuilder sb, String name, String description, String unit, String countName,
            long count, List<? extends ComparedRuntime> runtimes, List<Stats> perRuntime) {
        sb.append("    {\"workload\": ").append(Report.str(name))
                .append(", \"description\": ").append(Report.str(description))
                .append(", \"unit\": ").append(Report.str(unit))
                .append(", ").append(Report.str(countName)).append(": ").append(count)
                .append(",\n     \"runtimes\": {");
        for (int k = 0; k < runtimes.size(); k++) {
            sb.append(k == 0 ? "" : ", ").append(Report.str(runtimes.get(k).id())).append(": ")
                    .append(stats(perRuntime.get(k)));
        }
        sb.append('}');
    }

    /**
     * A workload's best runtime of each family compared ({@code null} where none of it ran) and
     * the ratio between them, with the per-round ratios.
     */
    static void bestAndRatio(StringBuilder sb, String firstName, String first, String secondName, String second,
            double ratio, Stats ratioSpread) {
        sb.append(",\n     ").append(Report.str(firstName)).append(": ").append(strOrNull(first))
                .append(", ").append(Report.str(secondName)).append(": ").append(strOrNull(second))
                .append(", \"ratio\": ").append(Report.num(ratio))
                .append(", \"ratioPerRound\": ").append(stats(ratioSpread));
    }

    /** A statistic as a JSON object: its count, median, quartiles and extremes. */
    static String stats(Stats s) {
        return "{\"n\": " + s.n() + ", \"median\": " + Report.num(s.median()) + ", \"q1\": " + Report.num(s.q1())
                + ", \"q3\": " + Report.num(s.q3()) + ", \"min\": " + Report.num(s.min()) + ", \"max\": "
                + Report.num(s.max()) + "}";
    }

    private static String strOrNull(String s) {
        return s == null ? "null" : Report.str(s);
    }
}
