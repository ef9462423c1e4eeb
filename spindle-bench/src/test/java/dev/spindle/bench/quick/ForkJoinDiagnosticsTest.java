/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.bench.workload.Size;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ForkJoinDiagnosticsTest {

    @Test
    void printsOneLinePerWorkloadAndPool() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ForkJoinDiagnostics.run(2, 1, List.of("fib", "uts"), Size.TINY, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2 * ForkJoinDiagnostics.POOLS.size());
        for (String pool : ForkJoinDiagnostics.POOLS) {
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("fib").contains(" " + pool + " "));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("uts").contains(" " + pool + " "));
        }
        assertThat(lines).allSatisfy(l -> assertThat(l).contains("workers=2").contains("steals/run")
                .contains("unparks/run").contains("cpu/run").contains("busy cores"));
        // a figure on every line; not necessarily a positive one: the JVM may read the process's
        // CPU time in clock ticks (10 ms), longer than a tiny run's turn under load (see below)
        assertThat(lines).allSatisfy(l -> assertThat(cpuPerRun(l)).isNotNegative());
    }

    /** The clock behind "cpu/run" and "busy cores" advances while the process works. */
    @Test
    void theProcessCpuClockAdvancesWhileThisThreadSpins() {
        long before = ProcessCpu.nanos();
        long deadline = System.nanoTime() + 10_000_000_000L;
        long sink = 0;
        while (ProcessCpu.nanos() == before && System.nanoTime() - deadline < 0) {
            for (int i = 0; i < 100_000; i++) {
                sink += i * 31L ^ sink;
            }
        }
        assertThat(ProcessCpu.nanos()).as("process CPU time after spinning (%d)", sink).isGreaterThan(before);
    }

    private static double cpuPerRun(String line) {
        Matcher m = Pattern.compile("cpu/run +([0-9.]+) ms").matcher(line);
        assertThat(m.find()).as("cpu/run in %s", line).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void rejectsWhatIsNotAForkJoinWorkloadAndBadCounts() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ForkJoinDiagnostics.run(2, 1, List.of("ping-pong"), Size.TINY, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ping-pong is not a fork/join workload");
        assertThatThrownBy(() -> ForkJoinDiagnostics.run(0, 1, List.of("fib"), Size.TINY, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> ForkJoinDiagnostics.run(2, 0, List.of("fib"), Size.TINY, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rounds");
        assertThatThrownBy(() -> ForkJoinDiagnostics.run(2, 1, List.of("nope"), Size.TINY, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown workload");
    }
}
