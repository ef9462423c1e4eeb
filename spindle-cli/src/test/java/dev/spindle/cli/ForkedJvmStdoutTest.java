/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by review (H100): a child of {@code --forks} gets the parent's JVM options, and the JVM
 * writes some of its own output to standard output: a GC log without a file ({@code -Xlog:gc},
 * {@code -verbose:gc}), {@code -XX:+PrintCompilation}, unified logging's warnings by default. The
 * child's standard output was read as its report, so such an option, given to see the GC while
 * benchmarking, failed every {@code --forks} run: "JVM 1 of 2 printed no report: bad JSON at
 * offset 0: unexpected '['". The report now travels in a file of its own.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ForkedJvmStdoutTest {

    @Test
    void aGcLogOnStandardOutputDoesNotSpoilTheChildrensReports(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xlog:gc", "-XX:+PrintCommandLineFlags",
                "-cp", System.getProperty("java.class.path"), SpindleCli.class.getName(), "bench",
                "--workloads", "chained-spawn", "--rounds", "1", "--warmup", "1", "--workers", "1", "--forks", "2",
                "--progress", "none");
        pb.environment().keySet().removeAll(Forks.JVM_OPTION_VARIABLES);
        File out = dir.resolve("out.txt").toFile();
        File err = dir.resolve("err.txt").toFile();
        pb.redirectOutput(out).redirectError(err);
        Process p = pb.start();
        try {
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("the command ended").isTrue();
            String stdout = Files.readString(out.toPath(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as("exit status; stderr:%n%s", Files.readString(err.toPath())).isZero();
            assertThat(stdout).contains("spindle bench in 2 JVMs")
                    .containsPattern("chained-spawn +\\d+\\.\\d\\d +\\d+\\.\\d\\d-\\d+\\.\\d\\d +\\d+\\.\\d\\d"
                            + " +\\d+\\.\\d\\d");
            // the GC logs the user asked for still show, the children's with the parent's
            assertThat(stdout.lines().filter(l -> l.contains("[gc]") && l.contains("Using ")).count())
                    .as("JVMs whose GC log shows").isEqualTo(3);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
