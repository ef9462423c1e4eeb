/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spindle-bench/scripts/scaling.sh: every workload at every worker count, each count once, the rest at the largest. */
class BenchScriptsRegressionTest {

    /**
     * scaling.sh leaves out only the probes below the largest worker count (its header says so),
     * but it names the workloads it runs there one by one: a workload added to {@link Workloads}
     * later (fib-spawn) was measured at the largest count alone, and its scaling never.
     */
    @Test
    void scalingRunsEveryWorkloadAtEveryWorkerCount() throws IOException {
        String script = Files.readString(Path.of("scripts", "scaling.sh"));
        Matcher m = Pattern.compile("--workloads\\s+([a-z0-9,-]+)").matcher(script);
        List<String> lists = new ArrayList<>();
        while (m.find()) {
            lists.add(m.group(1));
        }
        assertThat(lists).as("--workloads lists in scaling.sh").isNotEmpty();
        for (String list : lists) {
            assertThat(List.of(list.split(","))).as("scaling.sh --workloads " + list)
                    .containsExactlyElementsOf(Workloads.names());
        }
    }

    /**
     * The default counts are 2 4 8 and the processor count, so on an 8-core machine 8 came twice:
     * the whole fork/join suite ran twice at 8 workers (up to SUITE_LIMIT seconds lost), the second
     * run overwriting the first's table.
     */
    @Test
    void scalingRunsEachWorkerCountOnceWhenTheProcessorsAreOneOfTheDefaults(@TempDir Path dir) throws Exception {
        List<String> runs = scaling(dir, 8);
        assertThat(runs).filteredOn(r -> r.startsWith("bench --workers"))
                .as("fork/join runs").hasSize(3)
                .anyMatch(r -> r.startsWith("bench --workers 8 --progress"));
        assertThat(runs).filteredOn(r -> r.startsWith("bench --workers 8")).hasSize(1);
    }

    /**
     * Its header says the probes and the actor and async suites run at the largest count; it took
     * the last one given, so {@code scaling.sh OUT 8 4 2} ran them at 2 workers.
     */
    @Test
    void scalingRunsTheProbesAndTheOtherSuitesAtTheLargestCountGivenInAnyOrder(@TempDir Path dir) throws Exception {
        List<String> runs = scaling(dir, 16, "8", "4", "2");
        assertThat(runs).contains("bench actors --workers 8 --progress none --rounds 10 --warmup 3",
                "bench async --workers 8 --progress none --rounds 10 --warmup 3");
        assertThat(runs).anyMatch(r -> r.startsWith("bench --workers 8 --progress"))   // every workload and the probes
                .anyMatch(r -> r.startsWith("bench --workers 2 --workloads"))
                .anyMatch(r -> r.startsWith("bench --workers 4 --workloads"))
                .hasSize(5);
    }

    /**
     * Runs scaling.sh with a {@code java} that only records its arguments (after the jar) and an
     * {@code nproc} that says {@code cpus}; returns the recorded runs.
     */
    private static List<String> scaling(Path dir, int cpus, String... counts) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("runs.txt");
        script(bin.resolve("java"), "#!/usr/bin/env bash\n"
                + "if [[ \"$1\" == -version ]]; then echo 'fake java'; exit 0; fi\n"
                + "while [[ $# -gt 0 && \"$1\" != -jar ]]; do shift; done\n"   // the JVM options
                + "shift 2\n"                                           // -jar JAR
                + "echo \"$*\" >> '" + log + "'\n");
        script(bin.resolve("nproc"), "#!/usr/bin/env bash\necho " + cpus + "\n");
        Path jar = Files.writeString(dir.resolve("spindle.jar"), "");
        List<String> command = new ArrayList<>(List.of("bash", Path.of("scripts", "scaling.sh").toString(),
                dir.resolve("out").toString()));
        command.addAll(List.of(counts));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA", bin.resolve("java").toString());
        pb.environment().put("SPINDLE_JAR", jar.toString());
        pb.environment().remove("SUITES");
        pb.environment().remove("ROUNDS");
        pb.environment().remove("WARMUP");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return Files.readAllLines(log);
    }

    private static void script(Path path, String text) throws IOException {
        Files.writeString(path, text);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
