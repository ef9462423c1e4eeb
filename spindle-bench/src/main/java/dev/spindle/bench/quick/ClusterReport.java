/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cluster harness's result, as a table or as JSON. The JSON has the shape that
 * {@code spindle-bench/dask/dask_bench.py} prints for Dask, so {@code ratios.py} can pair the two
 * by configuration and shape.
 *
 * @param warmupRounds rounds run and discarded
 * @param rounds measured rounds
 * @param elapsedMillis wall-clock time of the whole run, cluster starts and warm-up included
 * @param javaVersion the JVM that ran it
 * @param cores available processors
 * @param balanceMillis the scheduler's balance interval
 * @param rows one per configuration and shape
 */
public record ClusterReport(int warmupRounds, int rounds, long elapsedMillis, String javaVersion, int cores,
        long balanceMillis, List<Row> rows) {

    /**
     * One shape on one configuration; NaN where a figure does not apply or is not counted.
     *
     * @param config {@code inprocess} or {@code processes}
     * @param workers workers of the cluster
     * @param threads threads per worker
     * @param shape the graph
     * @param tasks tasks in one run
     * @param seconds each measured run's time
     * @param tasksPerSecond tasks / median seconds
     * @param boundSeconds max(total work / total threads, critical path), for graphs of sleeping tasks
     * @param overBound median seconds / bound
     * @param dataBytes median bytes moved between workers by dependency fetches
     * @param tcpBytesSent median TCP bytes the worker processes sent (other processes only)
     * @param steals median steals confirmed
     */
    public record Row(String config, int workers, int threads, String shape, int tasks, Stats seconds,
            double tasksPerSecond, double boundSeconds, double overBound, double dataBytes, double tcpBytesSent,
            double steals) {
    }

    /** The report as an aligned text table, ending with a newline. */
    public String toTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "Cluster graphs on Spindle: median of %d rounds after %d warm-up rounds, balance every %d ms,"
                        + " %.1f s, Java %s, %d cores%n", rounds, warmupRounds, balanceMillis, elapsedMillis / 1000.0,
                javaVersion, cores));
        sb.append("bound = max(total work / total threads, critical path), for graphs of sleeping tasks;"
                + " data = bytes moved between workers; tcp = bytes the worker processes sent\n");
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"config", "workers", "shape", "tasks", "median", "+-", "tasks/s", "bound", "/bound",
            "data", "tcp", "steals"});
        for (Row r : rows) {
            lines.add(new String[] {r.config(), r.workers() + "x" + r.threads(), r.shape(), Integer.toString(r.tasks()),
                String.format(Locale.ROOT, "%.1f ms", r.seconds().median() * 1e3), iqr(r.seconds()),
                fixed(r.tasksPerSecond(), "%.0f"), Double.isNaN(r.boundSeconds()) ? "-"
                        : String.format(Locale.ROOT, "%.1f ms", r.boundSeconds() * 1e3),
                fixed(r.overBound(), "%.2f"), bytes(r.dataBytes()), bytes(r.tcpBytesSent()), fixed(r.steals(), "%.0f")});
        }
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                String pad = " ".repeat(width[i] - l[i].length());
                line.append(i < 3 ? l[i] + pad : pad + l[i]).append("  ");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String iqr(Stats s) {
        double f = s.halfIqrFraction();
        return Double.isNaN(f) || Double.isInfinite(f) ? "" : String.format(Locale.ROOT, "%.0f%%", 100 * f);
    }

    private static String fixed(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    private static String bytes(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.1f MB", v / 1e6);
        }
        if (v >= 1e3) {
            return String.format(Locale.ROOT, "%.1f kB", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f B", v);
    }

    /** The report as a JSON object, ending with a newline. */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n");
        sb.append("  \"suite\": \"cluster\",\n");
        sb.append("  \"system\": \"spindle\",\n");
        sb.append("  \"java\": ").append(Report.str(javaVersion)).append(",\n");
        sb.append("  \"cores\": ").append(cores).append(",\n");
        sb.append("  \"rounds\": ").append(rounds).append(",\n");
        sb.append("  \"warmupRounds\": ").append(warmupRounds).append(",\n");
        sb.append("  \"balanceMillis\": ").append(balanceMillis).append(",\n");
        sb.append("  \"elapsedMillis\": ").append(elapsedMillis).append(",\n");
        sb.append("  \"results\": [");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"run\": ").append(Report.str(r.config() + "/" + r.shape()))
                    .append(", \"config\": ").append(Report.str(r.config()))
                    .append(", \"workers\": ").append(r.workers())
                    .append(", \"threads\": ").append(r.threads())
                    .append(", \"shape\": ").append(Report.str(r.shape()))
                    .append(", \"tasks\": ").append(r.tasks())
                    .append(",\n     \"seconds\": ").append(ReportFormat.stats(r.seconds()))
                    .append(",\n     \"tasksPerSecond\": ").append(Report.num(r.tasksPerSecond()))
                    .append(", \"boundSeconds\": ").append(Report.num(r.boundSeconds()))
                    .append(", \"overBound\": ").append(Report.num(r.overBound()))
                    .append(", \"dataBytes\": ").append(Report.num(r.dataBytes()))
                    .append(", \"tcpBytesSent\": ").append(Report.num(r.tcpBytesSent()))
                    .append(", \"steals\": ").append(Report.num(r.steals())).append('}');
        }
        sb.append(rows.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        return sb.toString();
    }
}
