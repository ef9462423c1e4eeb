/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/compare-runs.py}, which ab.sh ends with, on hand-made reports: its rank test
 * decides whether one build's ratios differ from another's, so its p-value must be right where
 * the decision is taken (4 JVMs a build, around the 5 % level), and a report it cannot read must
 * not drop out of the figures unnoticed.
 */
class CompareRunsRankTestTest {

    /**
     * Builds A (1, 2, 3, 5) and B (4, 6, 7, 8): one overlap, U = 1. Of the 70 equally likely
     * splits of 8 distinct values into two groups of 4, 4 have U <= 1 on one side or the other,
     * so the exact two-sided p is 4/70 = 0.057: not significant at the 5 % level. The normal
     * approximation without a continuity correction gave 0.043 and called it significant.
     */
    @Test
    void fourJvmsABuildWithOneOverlapAreNotSignificantAtFivePercent(@TempDir Path dir) throws Exception {
        reports(dir, "A", 1, 2, 3, 5);
        reports(dir, "B", 4, 6, 7, 8);
        assertThat(compare(dir)).contains("| fib | 1.00 2.00 3.00 5.00 | 4.00 6.00 7.00 8.00 | 2.50 | 6.50 | U = 1, p = 0.06 |");
    }

    /** No overlap at all: 2 of the 70 splits are that extreme, exact p = 0.029. */
    @Test
    void fourJvmsABuildWithNoOverlapHaveTheExactP(@TempDir Path dir) throws Exception {
        reports(dir, "A", 1, 2, 3, 4);
        reports(dir, "B", 5, 6, 7, 8);
        assertThat(compare(dir)).contains("| U = 0, p = 0.03 |");
    }

    /**
     * With ties (A 1, 1, 2, 2 and B 2, 3, 3, 3: 1 twice, 2 and 3 three times) the ranks are
     * averaged (U = 1) and the variance is the tie-corrected one, 16 / 12 * (9 - (6 + 24 + 24) / 56)
     * = 10.71, so with the continuity correction z = (8 - 1 - 0.5) / 3.273 = 1.986 and p = 0.047
     * ("0.05"). Without either correction it was 0.043 ("0.04").
     */
    @Test
    void tiedRatiosUseTheTieCorrectedVariance(@TempDir Path dir) throws Exception {
        reports(dir, "A", 1, 1, 2, 2);
        reports(dir, "B", 2, 3, 3, 3);
        assertThat(compare(dir)).contains("| U = 1, p = 0.05 |");
    }

    /** A report cut short (a run killed mid-write) is named, not silently left out of the medians. */
    @Test
    void aReportItCannotReadIsNamed(@TempDir Path dir) throws Exception {
        reports(dir, "A", 1, 2, 3, 4);
        reports(dir, "B", 5, 6, 7, 8);
        Files.writeString(dir.resolve("fj-B-9.json"), "{\"results\": [{\"workload\": \"fib\", \"ra");
        assertThat(compare(dir)).contains("left out " + dir.resolve("fj-B-9.json"));
    }

    /**
     * A JVM whose report has the workload but no figure for it (null: the idle-CPU ratio where
     * Spindle's median was 0, a ratio without one of its runtimes) was dropped from that build's
     * list, median and rank test, so 3 JVMs read as if 3 had been run. The row now says how many
     * JVMs of each build had no figure.
     */
    @Test
    void jvmsWithoutAFigureAreCountedInTheRow(@TempDir Path dir) throws Exception {
        reports(dir, "A", 1, 2, 3, 4);
        reports(dir, "B", 5, 6, 7);
        Files.writeString(dir.resolve("fj-B-4.json"), "{\"results\": [{\"workload\": \"fib\", \"ratio\": null}]}\n");
        assertThat(compare(dir)).contains("| fib | 1.00 2.00 3.00 4.00 | 5.00 6.00 7.00, 1 JVM without a figure |");
    }

    /** The same for a {@code --forks} report, whose summary gives each JVM's figure or null. */
    @Test
    void forkedJvmsWithoutAFigureAreCountedInTheRow(@TempDir Path dir) throws Exception {
        reports(dir, "A", 1, 2, 3, 4);
        Files.writeString(dir.resolve("fj-B-1.json"), "{\"summary\": [{\"field\": \"ratio\", \"workload\": \"fib\","
                + " \"perJvm\": [5.0, null, 6.0, null, 7.0]}]}\n");
        assertThat(compare(dir)).contains("| fib | 1.00 2.00 3.00 4.00 | 5.00 6.00 7.00, 2 JVMs without a figure |");
    }

    /** Writes one {@code bench --json} report per ratio, as ab.sh names them. */
    private static void reports(Path dir, String build, double... ratios) throws Exception {
        for (int i = 0; i < ratios.length; i++) {
            Files.writeString(dir.resolve("fj-" + build + "-" + (i + 1) + ".json"), AbScript.report(ratios[i]));
        }
    }

    /** compare-runs.py's output (stdout and stderr) for builds A and B of suite fj in {@code dir}. */
    private static String compare(Path dir) throws Exception {
        Process p = new ProcessBuilder(List.of("python3", Path.of("scripts", "compare-runs.py").toAbsolutePath().toString(),
                dir.toString(), "fj", "A", "B")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
