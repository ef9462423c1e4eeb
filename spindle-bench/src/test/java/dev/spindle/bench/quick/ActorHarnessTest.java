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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorHarnessTest {

    private static ActorHarness.Options tiny() {
        return new ActorHarness.Options().size(Size.TINY).workers(2).rounds(3).warmupRounds(1);
    }

    @Test
    void reportsEveryRuntimeForEveryWorkload() {
        ActorReport r = new ActorHarness(tiny().workloads(List.of("pingpong", "count"))).run();
        assertThat(r.runtimes()).extracting(ActorReport.Runtime::id)
                .containsExactly("pekko-t5", "pekko-t100", "spindle-wsh", "spindle-ws");
        assertThat(r.runtimes()).extracting(ActorReport.Runtime::family)
                .containsExactly("Pekko", "Pekko", "Spindle", "Spindle");
        assertThat(r.rows()).extracting(ActorReport.Row::name).containsExactly("pingpong", "count");
        ActorReport.Row row = r.rows().get(0);
        assertThat(row.perRuntime()).hasSize(4).allSatisfy(s -> {
            assertThat(s.n()).isEqualTo(3);
            assertThat(s.median()).isPositive();
        });
        assertThat(row.bestPekko()).isIn("pekko-t5", "pekko-t100");
        assertThat(row.bestSpindle()).isIn("spindle-wsh", "spindle-ws");
        assertThat(row.ratio()).isPositive().isFinite();
        assertThat(row.ratioSpread().n()).isEqualTo(3);
        assertThat(row.messages()).isEqualTo(401);
        assertThat(row.note()).contains("msg/s");
    }

    @Test
    void tableAndJsonCarryTheResults() {
        ActorReport r = new ActorHarness(tiny().workloads(List.of("threadring", "big")).runtimes(List.of("pekko-t5")))
                .run();
        String table = r.toTable();
        assertThat(table).contains("best Spindle throughput / best Pekko throughput").contains("pekko-t5 = Pekko")
                .doesNotContain("pekko-t100");
        assertThat(table.lines().filter(l -> l.startsWith("threadring")).findFirst()).hasValueSatisfying(
                l -> assertThat(l).contains(" ms").contains("n/a"));
        String json = r.toJson();
        assertThat(json).startsWith("{").contains("\"suite\": \"actors\"").contains("\"workload\": \"big\"")
                .contains("\"pekko-t5\": {\"n\": 3").contains("\"ratio\": null").contains("\"bestSpindle\": null")
                .endsWith("}\n");
        assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
    }

    @Test
    void progressLinesGoToTheGivenStream() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new ActorHarness(tiny().workloads(List.of("count")).progress(Progress.lines(err))).run();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("warm-up round 1/1").contains("round 3/3")
                .contains("done");
    }

    @Test
    void unknownNamesAreRefused() {
        assertThatThrownBy(() -> new ActorHarness.Options().workloads(List.of("count", "fib")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("valid: pingpong");
        assertThatThrownBy(() -> new ActorHarness.Options().runtimes(List.of("akka")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pekko-t5");
        assertThatThrownBy(() -> new ActorHarness.Options().workloads(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
