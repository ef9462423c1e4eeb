/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dask/ratios.py} divides Spindle's tasks per second by Dask's for each configuration and
 * shape. It paired the rows by configuration and shape alone: a Spindle run at {@code --size tiny}
 * (50 tasks) against a Dask run at the quick size (5,000), or with other workers or threads,
 * printed ratios of different work as if they were comparable. It must refuse them, naming what
 * differs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DaskRatiosPairingTest {

    @Test
    void rowsOfDifferentSizesAreRefusedAndRowsOfTheSameArePaired(@TempDir Path dir) throws Exception {
        Path dask = write(dir, "dask.json", report("dask", 20, row("tiny", 5000, 4, 2, 1000.0)));

        Run other = ratios(write(dir, "small.json", report("spindle", 20, row("tiny", 50, 4, 2, 2000.0))), dask);
        assertThat(other.status()).as(other.output()).isEqualTo(1);
        assertThat(other.output()).contains("not of the same sizes").contains("inprocess/tiny: tasks 50 vs 5000")
                .doesNotContain("2.00");

        Run workers = ratios(write(dir, "workers.json", report("spindle", 20, row("tiny", 5000, 3, 2, 2000.0))), dask);
        assertThat(workers.status()).as(workers.output()).isEqualTo(1);
        assertThat(workers.output()).contains("inprocess/tiny: workers 3 vs 4");

        Run balance = ratios(write(dir, "balance.json", report("spindle", 50, row("tiny", 5000, 4, 2, 2000.0))), dask);
        assertThat(balance.status()).as(balance.output()).isEqualTo(1);
        assertThat(balance.output()).contains("different intervals");

        Run same = ratios(write(dir, "same.json", report("spindle", 20, row("tiny", 5000, 4, 2, 2000.0))), dask);
        assertThat(same.status()).as(same.output()).isZero();
        assertThat(same.output()).containsPattern("inprocess\\s+tiny\\s+5000 .* 2\\.00 ");
    }

    /** A row of one side only is left out, and said so; nothing in both is an error, not an empty table. */
    @Test
    void rowsOfOneSideOnlyAreNamedAndNoPairAtAllIsRefused(@TempDir Path dir) throws Exception {
        Path dask = write(dir, "dask.json", report("dask", 20, row("tiny", 5000, 4, 2, 1000.0)));
        Run partly = ratios(write(dir, "two.json", report("spindle", 20, row("tiny", 5000, 4, 2, 2000.0) + ","
                + row("tree", 8191, 4, 2, 4000.0))), dask);
        assertThat(partly.status()).as(partly.output()).isZero();
        assertThat(partly.output()).contains("left out, not in both runs: inprocess/tree (Spindle only)");

        Run none = ratios(write(dir, "tree.json", report("spindle", 20, row("tree", 8191, 4, 2, 4000.0))), dask);
        assertThat(none.status()).as(none.output()).isEqualTo(1);
        assertThat(none.output()).contains("no configuration and shape is in both runs");
    }

    private record Run(int status, String output) {
    }

    private static Run ratios(Path spindle, Path dask) throws Exception {
        assumeTrue(python(), "python3 is not on the PATH");
        Process p = new ProcessBuilder("python3", Path.of("dask", "ratios.py").toAbsolutePath().toString(),
                spindle.toString(), dask.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
        return new Run(p.exitValue(), output);
    }

    private static boolean python() {
        try {
            return new ProcessBuilder("python3", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static Path write(Path dir, String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    /** A report of {@code system} ("spindle" or "dask") with the given rows, in the shape both print. */
    private static String report(String system, int balanceMillis, String rows) {
        return "{\"suite\": \"cluster\", \"system\": \"" + system + "\", \"java\": \"17\", \"version\": \"2022.12\","
                + " \"python\": \"3.11\", \"cores\": 2, \"rounds\": 3, \"warmupRounds\": 1, \"balanceMillis\": "
                + balanceMillis + ", \"results\": [" + rows + "]}";
    }

    /** One row of configuration "inprocess" whose median took {@code tasks / tasksPerSecond} seconds. */
    private static String row(String shape, int tasks, int workers, int threads, double tasksPerSecond) {
        double seconds = tasks / tasksPerSecond;
        return "{\"config\": \"inprocess\", \"workers\": " + workers + ", \"threads\": " + threads
                + ", \"shape\": \"" + shape + "\", \"tasks\": " + tasks + ", \"seconds\": {\"median\": " + seconds
                + "}, \"tasksPerSecond\": " + tasksPerSecond + ", \"boundSeconds\": null, \"overBound\": null,"
                + " \"dataBytes\": 0, \"tcpBytesSent\": null, \"steals\": 0}";
    }
}
