/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every workload, at its tiny size, on every runtime it supports, computes the known answer. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadsTest {

    /** The answers at {@link Size#TINY}, written out so the tests do not trust the workloads' own. */
    private static final Map<String, Long> TINY_ANSWERS = Map.ofEntries(
            Map.entry("fib", 610L),                      // fib(15)
            Map.entry("fib-spawn", 610L),                // fib(15)
            Map.entry("fib-cutoff", 17_711L),            // fib(22)
            Map.entry("nqueens", 92L),                   // 8 queens
            Map.entry("uts", 2_698L),                    // seed 10, b = 3, depth 6, 2 rounds
            Map.entry("spawn-many-local", 124_750L),     // 0 + 1 + ... + 499
            Map.entry("spawn-many-remote", 124_750L),
            Map.entry("yield-many", 1_000L),             // 20 x 50
            Map.entry("ping-pong", 350L),                // 50 x (6 + 1)
            Map.entry("chained-spawn", 4_950L),          // 0 + 1 + ... + 99
            Map.entry("skynet", 499_500L));              // 0 + 1 + ... + 999

    private final Map<RuntimeKind, BenchRuntime> runtimes = new EnumMap<>(RuntimeKind.class);

    @BeforeAll
    void startRuntimes() {
        for (RuntimeKind k : RuntimeKind.values()) {
            runtimes.put(k, Runtimes.create(k, 3));
        }
    }

    @AfterAll
    void closeRuntimes() {
        runtimes.values().forEach(BenchRuntime::close);
    }

    static Stream<Arguments> supported() {
        List<Arguments> list = new ArrayList<>();
        for (String name : Workloads.names()) {
            Workload w = Workloads.create(name, Size.TINY);
            for (RuntimeKind k : RuntimeKind.values()) {
                if (w.supports(k)) {
                    list.add(Arguments.of(name, k));
                }
            }
        }
        return list.stream();
    }

    @Test
    void everyWorkloadHasAWrittenOutAnswer() {
        assertThat(TINY_ANSWERS.keySet()).containsExactlyInAnyOrderElementsOf(Workloads.names());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("supported")
    void computesTheKnownAnswer(String name, RuntimeKind kind) {
        Workload w = Workloads.create(name, Size.TINY);
        long expected = TINY_ANSWERS.get(name);
        for (int i = 0; i < 3; i++) {           // the pools are reused; later runs must agree
            assertThat(w.run(runtimes.get(kind))).as("%s on %s, run %d", w.describe(), kind, i).isEqualTo(expected);
        }
    }

    @Test
    void forkJoinWorkloadsRefuseTheThreadPoolExecutor() {
        for (String name : List.of("fib", "fib-spawn", "fib-cutoff", "nqueens", "uts")) {
            Workload w = Workloads.create(name, Size.TINY);
            assertThat(w.supports(RuntimeKind.TPE)).isFalse();
            assertThatThrownBy(() -> w.run(runtimes.get(RuntimeKind.TPE)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("deadlock");
        }
    }

    @Test
    void sequentialBaselinesAreChecked() {
        FibCutoff f = new FibCutoff(25, 10);
        assertThat(f.runSequential()).isEqualTo(75_025L);
        assertThat(new NQueens(10, 2).runSequential()).isEqualTo(724L);
        assertThat(Fib.sequential(30)).isEqualTo(832_040L);
        assertThat(Fib.spawnedTasks(Fib.FULL_N)).isEqualTo(Fib.FULL_SPAWNED_TASKS).isEqualTo(2_692_536L);
    }

    @Test
    void fullSizeAnswers() {
        assertThat(((Skynet) Workloads.create("skynet", Size.FULL)).expected()).isEqualTo(499_999_500_000L);
        assertThat(((Skynet) Workloads.create("skynet", Size.FULL)).tasks()).isEqualTo(1_111_111L);
        assertThat(((NQueens) Workloads.create("nqueens", Size.FULL)).expected()).isEqualTo(14_200L);
        assertThat(((Fib) Workloads.create("fib", Size.FULL)).expected()).isEqualTo(832_040L);
    }

    /** Each workload's figures at each size, as the registry gave them: TINY's, then QUICK's (= FULL's). */
    @Test
    void everySizeBuildsTheRecordedFigures() {
        Map<String, List<String>> recorded = Map.ofEntries(
                Map.entry("fib", List.of("fib(15), no cutoff, both branches spawned",
                        "fib(30), no cutoff, both branches spawned")),
                Map.entry("fib-spawn", List.of("fib(15) with pool.spawn(lambda) and join, both branches spawned",
                        "fib(30) with pool.spawn(lambda) and join, both branches spawned")),
                Map.entry("fib-cutoff", List.of("fib(22), sequential below 12", "fib(40), sequential below 27")),
                Map.entry("nqueens", List.of("nqueens(8), a task per column in the top 2 rows",
                        "nqueens(12), a task per column in the top 3 rows")),
                Map.entry("uts", List.of(
                        "uts(geometric, b=3.0, depth 6, seed 10, 2 hash rounds/node), sequential in the bottom 1 levels",
                        "uts(geometric, b=4.0, depth 10, seed 10, 8 hash rounds/node), sequential in the bottom 3 levels")),
                Map.entry("spawn-many-local", List.of("spawn-many-local(500 tasks, spawned from a task in the pool)",
                        "spawn-many-local(10000 tasks, spawned from a task in the pool)")),
                Map.entry("spawn-many-remote", List.of("spawn-many-remote(500 tasks, spawned from outside)",
                        "spawn-many-remote(10000 tasks, spawned from outside)")),
                Map.entry("yield-many", List.of("yield-many(20 tasks x 50 yields)", "yield-many(200 tasks x 1000 yields)")),
                Map.entry("ping-pong", List.of("ping-pong(50 pairs x 6 bounces)", "ping-pong(1000 pairs x 20 bounces)")),
                Map.entry("chained-spawn", List.of("chained-spawn(100 links)", "chained-spawn(1000 links)")),
                Map.entry("skynet", List.of("skynet(1000 leaves, fan-out 10)", "skynet(1000000 leaves, fan-out 10)")));
        assertThat(recorded.keySet()).containsExactlyInAnyOrderElementsOf(Workloads.names());
        for (String name : Workloads.names()) {
            List<String> figures = recorded.get(name);
            assertThat(Workloads.create(name, Size.TINY).describe()).as(name).isEqualTo(figures.get(0));
            assertThat(Workloads.create(name, Size.QUICK).describe()).as(name).isEqualTo(figures.get(1));
            assertThat(Workloads.create(name, Size.FULL).describe()).as(name).isEqualTo(figures.get(1));
        }
    }

    @Test
    void fullUtsTreeHasTheRecordedSize() {
        Uts uts = new Uts(Uts.FULL, Uts.FULL_SEQ_LEVELS);
        assertThat(uts.expected()).isEqualTo(Uts.FULL_NODES);
    }

    @Test
    void utsTreeDependsOnTheSeed() {
        Uts a = new Uts(new Uts.Shape(10, 3.0, 6, 2), 1);
        Uts b = new Uts(new Uts.Shape(11, 3.0, 6, 2), 1);
        assertThat(a.expected()).isNotEqualTo(b.expected());
        assertThat(a.expected()).isEqualTo(a.countSequential(10, 0));
    }

    @Test
    void aWrongResultThrows() {
        assertThatThrownBy(() -> Checks.expect("x", 1, 2))
                .isInstanceOf(WrongResultException.class)
                .hasMessage("x: expected 1 but computed 2");
    }

    @Test
    void aRuntimeThatRunsATaskTwiceIsCaught() {
        try (BenchRuntime broken = new InlineRuntime(7)) {
            assertThatThrownBy(() -> SpawnMany.remote(500).run(broken)).isInstanceOf(WrongResultException.class);
        }
        try (BenchRuntime broken = new InlineRuntime(7)) {
            assertThatThrownBy(() -> new YieldMany(5, 10).run(broken)).isInstanceOf(WrongResultException.class);
        }
        try (BenchRuntime fine = new InlineRuntime(-1)) {
            assertThat(SpawnMany.remote(500).run(fine)).isEqualTo(124_750L);
        }
    }

    @Test
    void badSizesAreRejected() {
        assertThatThrownBy(() -> new Skynet(1_000, 7)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NQueens(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Workloads.create("nope", Size.TINY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown workload 'nope'; valid: fib, fib-spawn, fib-cutoff, nqueens, uts, spawn-many-local,"
                        + " spawn-many-remote, yield-many, ping-pong, chained-spawn, skynet");
        assertThatThrownBy(() -> Runtimes.create(RuntimeKind.SPINDLE, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RuntimeKind.byId("FJP-Async")).isEqualTo(RuntimeKind.FJP_ASYNC);
        assertThatThrownBy(() -> RuntimeKind.byId("x")).hasMessageContaining("spindle, fjp, fjp-async, tpe");
    }

    /** Runs each task at once on the caller's thread, and the {@code duplicate}-th one twice. */
    private static final class InlineRuntime implements BenchRuntime {
        private final int duplicate;
        private int count;

        InlineRuntime(int duplicate) {
            this.duplicate = duplicate;
        }

        @Override
        public RuntimeKind kind() {
            return RuntimeKind.TPE;
        }

        @Override
        public int workers() {
            return 1;
        }

        @Override
        public void execute(Runnable task) {
            task.run();
            if (count++ == duplicate) {
                task.run();
            }
        }

        @Override
        public boolean ownsThread(Thread thread) {
            return false;
        }

        @Override
        public void prestart() {
        }

        @Override
        public void close() {
        }
    }
}
