/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.util.List;
import java.util.Locale;

/**
 * The quick harness's result, as a table or as JSON.
 *
 * @param workers worker threads of every pool
 * @param warmupRounds rounds run and discarded
 * @param rounds measured rounds
 * @param elapsedMillis wall-clock time of the whole run, warm-up included
 * @param javaVersion the JVM that ran it
 * @param rows one per workload or probe statistic
 */
public record Report(int workers, int warmupRounds, int rounds, long elapsedMillis, String javaVersion,
        List<Row> rows) {

    static final String RATIO_MEANING =
            "ratio = FJP / Spindle (time: FJP time / Spindle time = Spindle throughput / FJP throughput); > 1 means Spindle is better";

    /** The report as an aligned text table, ending with a newline. */
    public String toTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "Spindle vs ForkJoinPool: %d workers, median of %d interleaved rounds after %d warm-up rounds, %.1f s, Java %s%n",
                workers, rounds, warmupRounds, elapsedMillis / 1000.0, javaVersion));
        sb.append(RATIO_MEANING).append('\n');
        sb.append(ReportFormat.SPREAD_MEANING).append('\n');
        sb.append("fjp mode = the faster ForkJoinPool mode in the warm-up rounds (fjp = LIFO default, fjp-async = FIFO)\n\n");
        String[] head = {"workload", "Spindle", "", "FJP", "", "fjp mode", "ratio", "spread", "note"};
        List<String[]> lines = new java.util.ArrayList<>();
        lines.add(head);
        for (Row r : rows) {
            lines.add(new String[] {
                r.name(),
                ReportFormat.value(r.spindle().median(), r.unit()),
                ReportFormat.iqr(r.spindle()),
                ReportFormat.value(r.fjp().median(), r.unit()),
                ReportFormat.iqr(r.fjp()),
                r.fjpMode(),
                ratio(r.ratio()),
                Double.isNaN(r.ratioSpread().min()) ? "-" : ratio(r.ratioSpread().min()) + "-" + ratio(r.ratioSpread().max()),
                r.note(),
            });
        }
        int[] width = new int[head.length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        boolean[] rightAligned = {false, true, true, true, true, false, true, true, false};
        for (int li = 0; li < lines.size(); li++) {
            String[] l = lines.get(li);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                String cell = l[i];
                String pad = " ".repeat(width[i] - cell.length());
                line.append(rightAligned[i] && li > 0 ? pad + cell : cell + pad);
                line.append(i == 0 ? "  " : " ");
                if (i == 2 || i == 4 || i == 5 || i == 6 || i == 7) {
                    line.append(' ');
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /**
     * As {@link ReportFormat#ratio}, except that this table has always written an infinite ratio
     * (a Spindle median of zero) as {@code Infinity} where the other reports write {@code n/a};
     * kept so that the table reads as it did.
     */
    private static String ratio(double r) {
        return Double.isInfinite(r) ? String.format(Locale.ROOT, "%.2f", r) : ReportFormat.ratio(r);
    }

    /** The report as a JSON object, ending with a newline. */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        ReportFormat.header(sb, null, workers, warmupRounds, rounds, elapsedMillis, javaVersion, RATIO_MEANING);
        sb.append("  \"results\": [");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"workload\": ").append(str(r.name()))
                    .append(", \"description\": ").append(str(r.description()))
                    .append(", \"unit\": ").append(str(r.unit()))
                    .append(", \"fjpMode\": ").append(str(r.fjpMode()))
                    .append(",\n     \"spindle\": ").append(ReportFormat.stats(r.spindle()))
                    .append(",\n     \"fjp\": ").append(ReportFormat.stats(r.fjp()))
                    .append(",\n     \"ratio\": ").append(num(r.ratio()))
                    .append(", \"ratioPerRound\": ").append(ReportFormat.stats(r.ratioSpread()))
                    .append(", \"note\": ").append(str(r.note())).append('}');
        }
        sb.append("\n  ]\n}\n");
        return sb.toString();
    }

    /**
     * A number as JSON: NaN and infinities as {@code null}.
     *
     * @param v the number
     * @return its JSON text
     */
    public static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "null";
        }
        return Double.toString(v);
    }

    /**
     * A string as a JSON string literal, quotes and control characters escaped.
     *
     * @param s the text
     * @return its JSON literal
     */
    public static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('"').toString();
    }
}
