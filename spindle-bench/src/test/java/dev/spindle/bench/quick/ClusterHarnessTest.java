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
class ClusterHarnessTest {

    private static ClusterHarness.Options tiny() {
        return new ClusterHarness.Options().size(Size.TINY).rounds(2).warmupRounds(1).runtimes(List.of("inprocess"));
    }

    @Test
    void everyShapeRunsCheckedInProcessWithItsFigures() throws Exception {
        ClusterReport r = new ClusterHarness(tiny()).run();
        assertThat(r.rows()).extracting(ClusterReport.Row::shape).containsExactly("tiny", "tree", "skewed", "shuffle");
        assertThat(r.rows()).allSatisfy(row -> {
            assertThat(row.config()).isEqualTo("inprocess");
            assertThat(row.workers()).isEqualTo(4);
            assertThat(row.threads()).isEqualTo(2);
            assertThat(row.seconds().n()).isEqualTo(2);
            assertThat(row.tasksPerSecond()).isPositive().isFinite();
            assertThat(row.dataBytes()).isNotNaN().isNotNegative();
            assertThat(row.steals()).isNotNaN().isNotNegative();
            assertThat(row.tcpBytesSent()).isNaN();          // no worker processes in process
        });
        assertThat(r.rows()).extracting(ClusterReport.Row::tasks).containsExactly(50, 63, 8, 24);
        ClusterReport.Row skewed = r.rows().get(2);
        assertThat(skewed.boundSeconds()).isEqualTo(0.005);   // 8 x 5 ms over 8 threads, one task long
        assertThat(skewed.overBound()).isGreaterThanOrEqualTo(1.0);
        assertThat(r.rows().get(0).boundSeconds()).isNaN();
        // the shuffle's combine tasks gather buckets from other workers
        assertThat(r.rows().get(3).dataBytes()).isPositive();
    }

    @Test
    void tableAndJsonCarryTheResults() throws Exception {
        ClusterReport r = new ClusterHarness(tiny().workloads(List.of("skewed", "tiny"))).run();
        assertThat(r.toTable()).contains("config").contains("/bound")
                .containsPattern("(?m)^inprocess\\s+4x2\\s+skewed\\s+8\\b").containsPattern("(?m)^inprocess\\s+4x2\\s+tiny\\s+50\\b");
        String json = r.toJson();
        assertThat(json).startsWith("{").contains("\"system\": \"spindle\"").contains("\"config\": \"inprocess\"")
                .contains("\"shape\": \"skewed\"").contains("\"tcpBytesSent\": null").endsWith("}\n");
        assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
        assertThat(json.chars().filter(c -> c == '[').count()).isEqualTo(json.chars().filter(c -> c == ']').count());
    }

    @Test
    void badOptionsAreRefusedByName() {
        assertThatThrownBy(() -> new ClusterHarness.Options().workloads(List.of("fib")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown workload 'fib'");
        assertThatThrownBy(() -> new ClusterHarness.Options().runtimes(List.of("yarn")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown cluster configuration 'yarn'");
        assertThatThrownBy(() -> new ClusterHarness.Options().threads(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads per worker");
        assertThatThrownBy(() -> new ClusterHarness.Options().processWorkers(17))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker processes");
    }
}
