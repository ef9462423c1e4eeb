/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pipeline of 1 MB intermediates far larger in total than the heap completes in a JVM of
 * {@code -Xmx512m}: it can only if intermediates are freed. CI runs 10,000 steps (10 GB made in
 * all); {@code -Dspindle.pipeline.tasks=100000} runs the full size.
 */
class BoundedMemoryPipelineTest {

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aLongPipelineOfMegabyteValuesRunsInA512MegabyteHeap() throws Exception {
        int tasks = Integer.getInteger("spindle.pipeline.tasks", 10_000);
        String classPath = String.join(File.pathSeparator, List.of(
                System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", "")));
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-Xmx512m", "-XX:+UseSerialGC", "-cp", classPath, PipelineMain.class.getName(),
                Integer.toString(tasks), Integer.toString(1 << 20)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            boolean exited = process.waitFor(80, TimeUnit.SECONDS);
            if (!exited) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);   // so that reading its output ends
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            System.out.println(output);
            assertThat(exited).as("the pipeline finished within 80 s; output:%n%s", output).isTrue();
            assertThat(process.exitValue()).as("exit status; output:%n%s", output).isZero();
            assertThat(output).contains("pipeline tasks=" + tasks);
        } finally {
            process.destroyForcibly();
        }
    }
}
