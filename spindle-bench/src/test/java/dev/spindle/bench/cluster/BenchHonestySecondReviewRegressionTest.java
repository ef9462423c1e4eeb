/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import static dev.spindle.bench.scripts.AbScript.ab;
import static dev.spindle.bench.scripts.AbScript.report;
import static dev.spindle.bench.scripts.AbScript.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.bench.scripts.AbScript.Run;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.LocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second look at the benchmark-honesty fixes: the cluster graphs release every future but the
 * ones the run waits for right after submission, before most of those tasks have run; ab.sh
 * refuses an output directory holding an earlier run's reports.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BenchHonestySecondReviewRegressionTest {

    /**
     * {@code ordered} releases the futures of every inner node of the tree as soon as the graph is
     * submitted, while the leaves still sleep: each released task must still run exactly once for
     * the kept root (ClusterFuture.release: "Tasks already depending on it still get the value"),
     * the root's value must be right, and every other value must be gone from the workers at the
     * end, as Dask drops the keys a client did not ask for.
     */
    @Test
    void aTreeReleasedBeforeItsNodesRunStillComputesTheRootOnceAndKeepsNothingElse() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(2).latency(Duration.ZERO)
                .balanceInterval(Duration.ofMillis(5)).build()) {
            int leaves = 24;
            ClusterWorkloads.Prepared p = ClusterWorkloads.treeReduction(cluster.client(), "s2-", leaves, 20);
            List<? extends ClusterFuture<?>> waited = p.submit();
            assertThat(waited).hasSize(1);
            assertThat(waited.get(0).get(60, TimeUnit.SECONDS)).isEqualTo((long) leaves * (leaves - 1) / 2);
            p.check();
            await("every node but the root is dropped", () -> {
                ClusterStats s = cluster.stats();
                return s.tasksReleased() == 2L * leaves - 2
                        && s.workers().stream().mapToInt(ClusterStats.WorkerStats::keysHeld).sum() == 1;
            });
            assertThat(cluster.stats().tasksExecuted()).as("runs: every node once, none recomputed")
                    .isEqualTo(2L * leaves - 1);
            waited.forEach(ClusterFuture::release);
        }
    }

    /** The shuffle as well: splits and getitems released at once, the P combines right. */
    @Test
    void aShuffleReleasedAtSubmissionStillComputesEveryCombineOnce() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(2).latency(Duration.ZERO)
                .balanceInterval(Duration.ofMillis(5)).build()) {
            int partitions = 6;
            ClusterWorkloads.Prepared p = ClusterWorkloads.shuffle(cluster.client(), "s2-", partitions, 256);
            List<? extends ClusterFuture<?>> waited = p.submit();
            assertThat(waited).hasSize(partitions);
            for (ClusterFuture<?> f : waited) {
                f.get(60, TimeUnit.SECONDS);
            }
            p.check();
            await("only the combines are held", () -> {
                ClusterStats s = cluster.stats();
                return s.tasksReleased() == (long) partitions * (partitions + 1)
                        && s.workers().stream().mapToInt(ClusterStats.WorkerStats::keysHeld).sum() == partitions;
            });
            assertThat(cluster.stats().tasksExecuted()).isEqualTo((long) partitions * (partitions + 2));
            waited.forEach(ClusterFuture::release);
        }
    }

    /**
     * ab.sh lists the stale reports it refuses with {@code find | sort | head -n 3} under
     * {@code set -o pipefail}: with enough of them, head exits before sort has written them all,
     * sort dies of SIGPIPE, and the script exited with status 141 and no message at all instead of
     * saying which directory holds what.
     */
    @Test
    void abNamesTheEarlierReportsEvenWhenTheDirectoryHoldsMany(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("results-of-an-earlier-comparison-with-a-long-name".repeat(2)));
        for (int i = 1; i <= 3000; i++) {
            Files.writeString(out.resolve("fj-A-" + i + ".json"), report(1.0));
        }
        Run r = ab(dir, Map.of(), "-r", "1", "-o", out.toString(), "A.jar", "B.jar");
        assertThat(r.status()).as(r.output()).isEqualTo(2);
        assertThat(r.output()).contains("already holds reports of an earlier run").contains("fj-A-1.json")
                .doesNotContain("round 1");
    }

    /**
     * The refusal must not cost the ordinary uses: no {@code -o} (a new temporary directory), a new
     * nested directory, and a directory whose other files compare-runs.py never reads (error logs,
     * another suite's reports, a subdirectory's); nor the suites ab.sh still compares.
     */
    @Test
    void abStillRunsWhereNoEarlierReportWouldCount(@TempDir Path dir) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Run plain = ab(dir, Map.of("TMPDIR", tmp.toString()), "-r", "2", "A.jar", "B.jar", "--workers", "2");
        assertThat(plain.status()).as(plain.output()).isZero();
        assertThat(plain.output()).contains("| fib | 1.00 1.00 | 2.00 2.00 |");
        try (var made = Files.list(tmp)) {
            assertThat(made.toList()).as("the temporary directory ab.sh made").hasSize(1);
        }

        Run fresh = ab(dir, Map.of(), "-r", "1", "-o", dir.resolve("new/nested").toString(), "A.jar", "B.jar");
        assertThat(fresh.status()).as(fresh.output()).isZero();

        Path used = Files.createDirectories(dir.resolve("used"));
        Files.writeString(used.resolve("fj-A-1.err"), "an earlier run's messages\n");
        Files.writeString(used.resolve("async-A-1.json"), report(100.0));
        Files.writeString(used.resolve("notes.txt"), "");
        Files.createDirectories(used.resolve("old")).resolve("fj-A-1.json").toFile().createNewFile();
        Run mixed = ab(dir, Map.of(), "-r", "1", "-o", used.toString(), "A.jar", "B.jar");
        assertThat(mixed.status()).as(mixed.output()).isZero();
        assertThat(mixed.output()).contains("| fib | 1.00 | 2.00 |").doesNotContain("100.00");

        for (String suite : List.of("actors", "async")) {
            Run r = ab(dir, Map.of(), "-r", "1", "-s", suite, "-o", dir.resolve(suite).toString(), "A.jar", "B.jar");
            assertThat(r.status()).as(r.output()).isZero();
            assertThat(r.output()).contains("| fib | 1.00 | 2.00 |");
        }
    }

    /**
     * ab.sh passes {@code -o DIR} to compare-runs.py, which globbed {@code DIR/fj-A-*.json} with the
     * directory's name as part of the pattern: a directory named {@code ab[1]} (a new directory for
     * each comparison, as ab.sh now asks) matched no report, and both jars' runs ended in a table
     * without a row and exit status 0, as if there were nothing to compare.
     */
    @Test
    void abComparesTheRunsOfADirectoryWhoseNameLooksLikeAPattern(@TempDir Path dir) throws Exception {
        Run r = ab(dir, Map.of(), "-r", "1", "-o", dir.resolve("ab[1]").toString(), "A.jar", "B.jar");
        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output()).contains("| fib | 1.00 | 2.00 |");
    }

    /** Waits (at most 30 s) for a condition on asynchronous releases. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting until " + what).isNegative();
            Thread.sleep(5);
        }
    }
}
