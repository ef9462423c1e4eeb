/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.util.Arrays;
import java.util.List;

/** Aligned text tables for the harnesses' reports (and the CLI's summary across JVMs). */
public final class TextTable {

    private TextTable() {
    }

    /**
     * Appends {@code lines} (the first the header) as aligned columns two spaces apart, each line
     * without trailing space and ending with a newline.
     *
     * @param sb where to append
     * @param lines the header, then the rows; every line as long as the header
     * @param right per column, whether its cells (not the header's) are aligned to the right
     */
    public static void append(StringBuilder sb, List<String[]> lines, List<Boolean> right) {
        int[] gaps = new int[right.size()];
        Arrays.fill(gaps, 2);
        append(sb, lines, right, gaps);
    }

    /**
     * As {@link #append(StringBuilder, List, List)}, with {@code gaps[i]} spaces after column
     * {@code i}: a wider gap sets a pair of columns (a median and its spread) apart from the next.
     *
     * @param sb where to append
     * @param lines the header, then the rows; every line as long as the header
     * @param right per column, whether its cells (not the header's) are aligned to the right
     * @param gaps per column, the spaces after it
     */
    public static void append(StringBuilder sb, List<String[]> lines, List<Boolean> right, int[] gaps) {
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (int li = 0; li < lines.size(); li++) {
            String[] l = lines.get(li);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                String pad = " ".repeat(width[i] - l[i].length());
                line.append(right.get(i) && li > 0 ? pad + l[i] : l[i] + pad).append(" ".repeat(gaps[i]));
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
