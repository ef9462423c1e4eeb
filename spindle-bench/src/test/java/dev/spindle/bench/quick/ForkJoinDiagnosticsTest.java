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
        assertThat(lines).allSatisfy(l -> assertThat(l).contains("workers=2").contains("steals/run"));
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
