/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        AsyncReport r = new AsyncHarness(tiny().workloads(List.of("spawn_many", "ping_pong", "contention"))).run();
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
    void contentionAloneOnCfRuntimesReportsNoContentionRows() {
        AsyncReport r = new AsyncHarness(tiny().workloads(List.of("contention")).runtimes(List.of("cf-fjp"))).run();
        assertThat(r.rows()).isEmpty();
        assertThat(r.contention()).isEmpty();
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
