/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.bench.runtime.VirtualThreads;
import dev.spindle.bench.workload.Size;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AsyncHarnessTest {

    private static AsyncHarness.Options tiny() {
        return new AsyncHarness.Options().size(Size.TINY).workers(2).rounds(3).warmupRounds(1);
    }

    @Test
    void reportsEveryRuntimeForEveryWorkloadAndBothSchedulersUnderContention() {
        AsyncReport r = new AsyncHarness(tiny().workloads(List.of("spawn_many", "ping_pong", "contention"))
                .runtimes(List.of("async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async"))).run();
        assertThat(r.runtimes()).extracting(AsyncReport.Runtime::id)
                .containsExactly("async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async");
        assertThat(r.rows()).extracting(AsyncReport.Row::name).containsExactly("spawn_many", "ping_pong");
        AsyncReport.Row row = r.rows().get(0);
        assertThat(row.perRuntime()).hasSize(4).allSatisfy(s -> {
            assertThat(s.n()).isEqualTo(3);
            assertThat(s.median()).isPositive();
        });
        assertThat(row.bestAsync()).isIn("async-ws", "async-hybrid");
        assertThat(row.bestCf()).isIn("cf-fjp", "cf-fjp-async");
        assertThat(row.ratio()).isPositive().isFinite();
        assertThat(row.ratioSpread().n()).isEqualTo(3);
        assertThat(row.vtRatio()).isNaN();                    // no virtual threads ran
        assertThat(row.vtRatioSpread().n()).isZero();
        assertThat(row.operations()).isEqualTo(100);
        assertThat(r.contention()).hasSize(1);
        AsyncReport.ContentionRow c = r.contention().get(0);
        assertThat(c.name()).isEqualTo("contention");
        assertThat(c.perRuntime()).extracting(AsyncReport.ContentionFigures::runtime)
                .containsExactly("async-ws", "async-hybrid");
        assertThat(c.perRuntime()).allSatisfy(f -> {
            assertThat(f.throughput().n()).isEqualTo(3 * AsyncHarness.CONTENTION_RUNS_PER_ROUND);
            assertThat(f.wakesP99().median()).isGreaterThanOrEqualTo(f.wakesP50().median());
            assertThat(f.completionMaxMs().median()).isGreaterThanOrEqualTo(f.completionP99Ms().median());
        });
        assertThat(c.wakesP99Ratio()).isPositive().isFinite();
        assertThat(c.completionP99Ratio()).isPositive().isFinite();
        assertThat(c.throughputRatio()).isPositive().isFinite();
    }

    @Test
    void tableAndJsonCarryTheResults() {
        AsyncReport r = new AsyncHarness(tiny().workloads(List.of("chained_spawn", "contention-herd"))
                .runtimes(List.of("async-hybrid", "cf-fjp"))).run();
        String table = r.toTable();
        assertThat(table).contains("best AsyncRuntime throughput / best CompletableFuture throughput")
                .contains("cf-fjp = CompletableFuture").doesNotContain("cf-fjp-async").contains("wakes p50");
        assertThat(table.lines().filter(l -> l.startsWith("chained_spawn")).findFirst()).hasValueSatisfying(
                l -> assertThat(l).contains(" ms").contains("async-hybrid").contains("cf-fjp"));
        assertThat(table.lines().filter(l -> l.startsWith("contention-herd") && l.contains("ws/hy")).findFirst())
                .hasValueSatisfying(l -> assertThat(l).contains("n/a"));     // async-ws did not run
        String json = r.toJson();
        assertThat(json).startsWith("{").contains("\"suite\": \"async\"").contains("\"workload\": \"chained_spawn\"")
                .contains("\"cf-fjp\": {\"n\": 3").contains("\"workload\": \"contention-herd\"")
                .contains("\"wakesP99Ratio\": null").endsWith("}\n");
        assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
        assertThat(json.chars().filter(c -> c == '[').count()).isEqualTo(json.chars().filter(c -> c == ']').count());
    }

    @Test
    void theChannelVariantOfPingPongRunsOnlyWhenNamed() {
        assertThat(new AsyncHarness.Options().workloads()).doesNotContain("ping_pong_channel")
                .contains("spawn_many", "yield_many", "ping_pong", "chained_spawn", "contention");
        AsyncReport r = new AsyncHarness(tiny().workloads(List.of("ping_pong", "ping_pong_channel"))
                .runtimes(List.of("async-ws", "cf-fjp"))).run();
        assertThat(r.rows()).extracting(AsyncReport.Row::name).containsExactly("ping_pong", "ping_pong_channel");
    }

    @Test
    void virtualThreadsAreSelectedByDefaultOnlyWhereTheyExistAndRefusedByNameBeforeJdk21() {
        List<String> defaults = new AsyncHarness.Options().runtimes();
        if (VirtualThreads.available()) {
            assertThat(defaults).containsExactly("async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async", "vthreads");
        } else {
            assertThat(defaults).containsExactly("async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async");
            assertThatThrownBy(() -> new AsyncHarness.Options().runtimes(List.of("async-ws", "vthreads")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'vthreads' needs JDK 21+").hasMessageContaining("this is Java 17");
        }
    }

    @Test
    void theVirtualThreadColumnRunsOnJdk21AndSaysHowTheBestAsyncRuntimeCompares() {
        assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+");
        AsyncReport r = new AsyncHarness(tiny().workloads(List.of("spawn_many", "yield_many", "ping_pong",
                "chained_spawn", "contention")).runtimes(List.of("async-ws", "cf-fjp", "vthreads"))).run();
        assertThat(r.hasVirtualThreads()).isTrue();
        assertThat(r.runtimes().get(2).description()).contains("carriers ").contains("JVM-wide");
        assertThat(r.rows()).hasSize(4).allSatisfy(row -> {
            assertThat(row.bestCf()).isEqualTo("cf-fjp");         // vthreads is not a CompletableFuture runtime
            assertThat(row.ratio()).isPositive().isFinite();
            assertThat(row.vtRatio()).isPositive().isFinite();
            assertThat(row.vtRatioSpread().n()).isEqualTo(3);
        });
        assertThat(r.contention()).singleElement().satisfies(c -> assertThat(c.perRuntime())
                .extracting(AsyncReport.ContentionFigures::runtime).containsExactly("async-ws"));
        assertThat(r.toTable()).contains("x vthreads").contains(AsyncReport.VT_RATIO_MEANING);
    }

    @Test
    void aReportWithVirtualThreadsHasTheirRatioInTheTableAndTheJson() {
        Stats one = Stats.of(List.of(1.0));
        List<AsyncReport.Runtime> runtimes = List.of(new AsyncReport.Runtime("async-ws", "AsyncRuntime", "async"),
                new AsyncReport.Runtime("cf-fjp", "CompletableFuture", "cf"),
                new AsyncReport.Runtime("vthreads", "virtual threads", "vt"));
        AsyncReport.Row row = new AsyncReport.Row("spawn_many", "spawn_many: 100 tasks", "ms", 100,
                List.of(Stats.of(List.of(2.0)), Stats.of(List.of(5.0)), Stats.of(List.of(3.0))), "async-ws", "cf-fjp",
                2.5, Stats.of(List.of(2.5)), 1.5, Stats.of(List.of(1.25, 1.75)), "");
        AsyncReport r = new AsyncReport(2, 1, 1, 10, "25", runtimes, List.of(row), List.of());
        String table = r.toTable();
        assertThat(table).startsWith("Async, AsyncRuntime vs CompletableFuture on ForkJoinPool and virtual threads: 2 workers")
                .contains("x vthreads = best AsyncRuntime throughput / virtual threads' throughput");
        List<String> lines = table.lines().collect(java.util.stream.Collectors.toList());
        String head = lines.stream().filter(l -> l.startsWith("workload")).findFirst().orElseThrow();
        assertThat(head).containsPattern("ratio +spread +x vthreads +spread +note");
        assertThat(lines.stream().filter(l -> l.startsWith("spawn_many")).findFirst()).hasValueSatisfying(
                l -> assertThat(l).containsPattern("2\\.50 +2\\.50-2\\.50 +1\\.50 +1\\.25-1\\.75"));
        assertThat(r.toJson()).contains("\"vtRatio\": 1.5, \"vtRatioPerRound\": {\"n\": 2, \"median\": 1.5")
                .contains("\"vtRatioDefinition\": ").contains("\"ratio\": 2.5");

        AsyncReport without = new AsyncReport(2, 1, 1, 10, "17", runtimes.subList(0, 2), List.of(new AsyncReport.Row(
                "spawn_many", "spawn_many: 100 tasks", "ms", 100, List.of(one, one), "async-ws", "cf-fjp", 1.0, one,
                Double.NaN, Stats.of(List.of()), "")), List.of());
        assertThat(without.toTable()).doesNotContain("vthreads").startsWith("Async, AsyncRuntime vs CompletableFuture on ForkJoinPool: ");
        assertThat(without.toJson()).contains("\"vtRatio\": null, \"vtRatioPerRound\": {\"n\": 0, \"median\": null");
    }

    /*
     * A contention workload runs on the async runtimes only. Named with none of them selected, it
     * was dropped without a word: "--workloads contention --runtimes cf-fjp" ran nothing, printed
     * empty tables and exited 0, and with a Tokio workload beside it the run left it out silently,
     * as echo servers none of which could run once made a run that measured nothing. Found by
     * review; failed before the fix (no exception).
     */
    @Test
    void aNamedContentionWorkloadWithNoAsyncRuntimeIsRefused() {
        assertThatThrownBy(() -> tiny().workloads(List.of("contention")).runtimes(List.of("cf-fjp")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("workload 'contention' runs on the async runtimes only (async-ws, async-hybrid);"
                        + " none is selected");
        assertThatThrownBy(() -> tiny().runtimes(List.of("cf-fjp", "cf-fjp-async"))
                .workloads(List.of("spawn_many", "contention-herd", "contention-barge")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("workloads 'contention-herd', 'contention-barge' run on the async runtimes only");
        // by default the contention workloads run where they can, and not at all without an async runtime
        assertThat(tiny().runtimes(List.of("cf-fjp")).workloads()).contains("contention");
        assertThat(tiny().workloads(List.of("contention")).runtimes(List.of("async-hybrid")).runtimes())
                .containsExactly("async-hybrid");
    }

    @Test
    void aReportWithNoRowsIsStillJson() {
        AsyncReport r = new AsyncReport(1, 1, 1, 0, "17", List.of(new AsyncReport.Runtime("cf-fjp",
                "CompletableFuture", "a pool")), List.of(), List.of());
        assertThat(r.toJson()).contains("\"results\": []").contains("\"contention\": []");
    }

    @Test
    void unknownNamesAreRefused() {
        assertThatThrownBy(() -> new AsyncHarness.Options().workloads(List.of("spawn_many", "fib")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("valid: spawn_many");
        assertThatThrownBy(() -> new AsyncHarness.Options().runtimes(List.of("tokio")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("async-ws");
        assertThatThrownBy(() -> new AsyncHarness.Options().workloads(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
