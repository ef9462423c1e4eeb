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
class QuickHarnessTest {

    private static QuickHarness.Options tiny() {
        return new QuickHarness.Options().size(Size.TINY).workers(2).rounds(3).warmupRounds(1)
                .latency(20, 2, 20).idleCpu(1, 50, 10);
    }

    @Test
    void reportsARowPerWorkloadAndProbeStatistic() {
        Report r = new QuickHarness(tiny().workloads(List.of("fib", "fib-cutoff", "skynet", "latency", "idle-cpu"))).run();
        assertThat(r.rows()).extracting(Row::name).containsExactly(
                "fib", "fib-cutoff", "skynet", "latency p50", "latency p99", "latency p99.9", "idle cpu");
        Row fib = r.rows().get(0);
        assertThat(fib.spindle().n()).isEqualTo(3);
        assertThat(fib.fjp().n()).isEqualTo(3);
        assertThat(fib.fjpMode()).isIn("fjp", "fjp-async");
        assertThat(fib.ratio()).isCloseTo(fib.fjp().median() / fib.spindle().median(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(fib.ratioSpread().n()).isEqualTo(3);
        assertThat(r.rows().get(1).note()).contains("efficiency");
        // each runtime's live threads include at least its two workers
        java.util.regex.Matcher threads = java.util.regex.Pattern
                .compile("threads at most Spindle (\\d+), FJP (\\d+)").matcher(fib.note());
        assertThat(threads.find()).as(fib.note()).isTrue();
        assertThat(Integer.parseInt(threads.group(1))).isGreaterThanOrEqualTo(2);
        assertThat(Integer.parseInt(threads.group(2))).isGreaterThanOrEqualTo(2);
        assertThat(r.rows().get(3).unit()).isEqualTo("us");
        assertThat(r.rows().get(3).spindle().median()).isPositive();
        assertThat(r.rounds()).isEqualTo(3);
    }

    @Test
    void tableAndJsonCarryTheResults() {
        Report r = new QuickHarness(tiny().workloads(List.of("nqueens", "chained-spawn"))).run();
        String table = r.toTable();
        assertThat(table).contains("ratio = FJP / Spindle").contains("nqueens").contains("chained-spawn");
        assertThat(table.lines().filter(l -> l.startsWith("nqueens")).findFirst()).isPresent();
        String json = r.toJson();
        assertThat(json).startsWith("{").contains("\"workload\": \"nqueens\"").contains("\"ratio\": ")
                .contains("\"rounds\": 3").endsWith("}\n");
        assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
    }

    @Test
    void progressLinesGoToTheGivenStream() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new QuickHarness(tiny().workloads(List.of("chained-spawn")).progress(Progress.lines(err))).run();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("warm-up round 1/1").contains("round 3/3").contains("done").doesNotContain("\r");
    }

    @Test
    void progressBarRedrawsOneLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Progress bar = Progress.bar(err);
        bar.start(4);
        bar.phase("round 1/2");
        bar.step("a");
        bar.step("b");
        bar.step("c");                         // starts after two of four steps completed
        bar.finish();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("\r").doesNotContain("\n").contains(" 50% ").contains("round 1/2 c")
                .doesNotContain(" 75% ");
    }

    @Test
    void badOptionsAreRejected() {
        assertThatThrownBy(() -> new QuickHarness.Options().workloads(List.of("fib", "bogus")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bogus").hasMessageContaining("idle-cpu");
        assertThatThrownBy(() -> new QuickHarness.Options().workloads(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QuickHarness.Options().rounds(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QuickHarness.Options().workers(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statsUseInterpolatedQuartiles() {
        Stats s = Stats.of(List.of(4.0, 1.0, 3.0, 2.0, 5.0));
        assertThat(s.median()).isEqualTo(3.0);
        assertThat(s.q1()).isEqualTo(2.0);
        assertThat(s.q3()).isEqualTo(4.0);
        assertThat(s.min()).isEqualTo(1.0);
        assertThat(s.max()).isEqualTo(5.0);
        assertThat(Stats.of(List.of(1.0, 2.0)).median()).isEqualTo(1.5);
        assertThat(Stats.of(List.of()).n()).isZero();
    }

    @Test
    void jsonNumbersAndStringsAreValid() {
        assertThat(Report.num(Double.NaN)).isEqualTo("null");
        assertThat(Report.num(1.5)).isEqualTo("1.5");
        assertThat(Report.str("a\"b\\c\n")).isEqualTo("\"a\\\"b\\\\c\\n\"");
    }
}
