/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reports' text and JSON for fixed figures, byte for byte. {@code compare-runs.py},
 * {@code ab.sh} and the docs parse these outputs, so a change to the shared formatting (numbers
 * with units, the +-IQR fraction, "n/a" ratios, JSON numbers, strings and stats objects) must
 * not move a character. The figures reach every branch of that formatting: each magnitude of a
 * value, zero, negative, NaN and infinite medians, spreads and ratios, a missing best runtime,
 * and strings that JSON must escape.
 */
class ReportOutputTest {

    private static final Stats BIG = new Stats(5, 123.456, 120, 130, 110, 140);
    private static final Stats TENS = new Stats(5, 45.67, 44, 47, 43, 50);
    private static final Stats ONES = new Stats(4, 5.5, 5.0, 6.25, 4.5, 7);
    private static final Stats SMALL = new Stats(3, 0.05, 0.04, 0.06, 0.03, 0.07);
    private static final Stats ZERO = new Stats(3, 0, 0, 0, 0, 0);
    private static final Stats NEGATIVE = new Stats(1, -2.5, -2.5, -2.5, -2.5, -2.5);
    private static final Stats INFINITE_IQR = new Stats(2, 1.0, 0, Double.POSITIVE_INFINITY, 0,
            Double.POSITIVE_INFINITY);
    private static final Stats SPREAD = new Stats(5, 0.37, 0.35, 0.4, 0.3, 0.45);
    private static final String ESCAPES = "say \"hi\" \\ back\nline\ttab\rcr\u0001ctl";

    static Report report() {
        return new Report(4, 2, 5, 12_345, "17.0.9+9", List.of(
                new Row("fib", "fib(30) " + ESCAPES, "ms", "fjp", BIG, TENS, 0.37, SPREAD, ""),
                new Row("small", "tiny figures", "us", "fjp-async", SMALL, ZERO, Double.POSITIVE_INFINITY,
                        Stats.EMPTY, "zero"),
                new Row("odd", "odd figures", "ms", "-", Stats.EMPTY, NEGATIVE, Double.NaN, INFINITE_IQR, "probe"),
                new Row("ones", "ones", "ms", "fjp", ONES, INFINITE_IQR, 1.2345, ONES, "")));
    }

    static ActorReport actorReport() {
        List<ActorReport.Runtime> runtimes = List.of(
                new ActorReport.Runtime("spindle-a", "Spindle", "Spindle actors " + ESCAPES),
                new ActorReport.Runtime("pekko-t5", "Pekko", "Pekko, throughput 5"));
        return new ActorReport(2, 1, 3, 9_876, "25+36", runtimes, List.of(
                new ActorReport.Row("pingpong", "pingpong " + ESCAPES, "ms", 40_000, List.of(BIG, TENS),
                        "spindle-a", "pekko-t5", 0.37, SPREAD, "a note"),
                new ActorReport.Row("big", "big", "ms", 123, List.of(SMALL, ZERO), null, null, Double.NaN,
                        Stats.EMPTY, ""),
                new ActorReport.Row("count", "count", "ms", 7, List.of(NEGATIVE, INFINITE_IQR), "spindle-a", null,
                        Double.POSITIVE_INFINITY, INFINITE_IQR, "")));
    }

    static ActorReport emptyActorReport() {
        return new ActorReport(1, 0, 1, 0, "17", List.of(), List.of());
    }

    static AsyncReport asyncReport(boolean vt, boolean rows, boolean contention) {
        List<AsyncReport.Runtime> runtimes = new ArrayList<>(List.of(
                new AsyncReport.Runtime("async-ws", "AsyncRuntime", "work stealing " + ESCAPES),
                new AsyncReport.Runtime("cf-fjp", "CompletableFuture", "CF on FJP")));
        if (vt) {
            runtimes.add(new AsyncReport.Runtime("vthreads", "virtual threads", "one per task"));
        }
        List<AsyncReport.Row> r = List.of(
                new AsyncReport.Row("spawn_many", "spawn_many " + ESCAPES, "ms", 10_000,
                        vt ? List.of(BIG, TENS, ONES) : List.of(BIG, TENS), "async-ws", "cf-fjp", 0.37, SPREAD,
                        vt ? 22.4 : Double.NaN, vt ? ONES : Stats.EMPTY, "n"),
                new AsyncReport.Row("yield_many", "yield_many", "ms", 5,
                        vt ? List.of(SMALL, ZERO, NEGATIVE) : List.of(SMALL, ZERO), null, null, Double.NaN,
                        Stats.EMPTY, Double.POSITIVE_INFINITY, INFINITE_IQR, ""));
        List<AsyncReport.ContentionRow> c = List.of(
                new AsyncReport.ContentionRow("contention", "contention: 40 tasks " + ESCAPES, 40, List.of(
                        new AsyncReport.ContentionFigures("async-ws", TENS, ONES, BIG, Stats.EMPTY, SMALL, ZERO,
                                NEGATIVE),
                        new AsyncReport.ContentionFigures("async-hybrid", BIG, ZERO, ONES, TENS, Stats.EMPTY,
                                INFINITE_IQR, BIG)),
                        1.5, Double.NaN, Double.POSITIVE_INFINITY));
        return new AsyncReport(3, 1, 2, 4_321, "21.0.2", runtimes, rows ? r : List.of(),
                contention ? c : List.of());
    }

    static ClusterReport clusterReport(boolean rows) {
        return new ClusterReport(1, 3, 5_555, "17.0.9", 2, 100, rows ? List.of(
                new ClusterReport.Row("inprocess", 2, 1, "tree " + ESCAPES, 63, ONES, 1234.5, 0.25, 1.1, 2_500_000,
                        Double.NaN, 3),
                new ClusterReport.Row("processes", 3, 2, "tiny", 1000, Stats.EMPTY, Double.NaN, Double.NaN,
                        Double.POSITIVE_INFINITY, 999, 1500, Double.NaN)) : List.of());
    }

    @Test
    void quickReportTableAndJsonAreUnchanged() {
        assertThat(report().toTable()).isEqualTo(REPORT_TABLE);
        assertThat(report().toJson()).isEqualTo(REPORT_JSON);
    }

    @Test
    void actorReportTableAndJsonAreUnchanged() {
        assertThat(actorReport().toTable()).isEqualTo(ACTOR_TABLE);
        assertThat(actorReport().toJson()).isEqualTo(ACTOR_JSON);
        assertThat(emptyActorReport().toTable()).isEqualTo(EMPTY_ACTOR_TABLE);
        assertThat(emptyActorReport().toJson()).isEqualTo(EMPTY_ACTOR_JSON);
    }

    @Test
    void asyncReportWithVirtualThreadsIsUnchanged() {
        assertThat(asyncReport(true, true, true).toTable())
                .isEqualTo(ASYNC_VT_TABLE_HEAD_AND_ROWS + ASYNC_TABLE_CONTENTION);
        assertThat(asyncReport(true, true, true).toJson()).isEqualTo(ASYNC_JSON_HEAD
                + ",\n    {\"id\": \"vthreads\", \"family\": \"virtual threads\", \"description\": \"one per task\"}"
                + "\n  ],\n" + ASYNC_VT_JSON_RESULTS + ASYNC_JSON_CONTENTION);
    }

    @Test
    void asyncReportWithoutVirtualThreadsIsUnchanged() {
        assertThat(asyncReport(false, true, true).toTable())
                .isEqualTo(ASYNC_TABLE_HEAD + ASYNC_TABLE_ROWS + ASYNC_TABLE_CONTENTION);
        assertThat(asyncReport(false, true, true).toJson())
                .isEqualTo(ASYNC_JSON_HEAD + "\n  ],\n" + ASYNC_JSON_RESULTS + ASYNC_JSON_CONTENTION);
        assertThat(asyncReport(false, true, false).toTable()).isEqualTo(ASYNC_TABLE_HEAD + ASYNC_TABLE_ROWS);
        assertThat(asyncReport(false, true, false).toJson())
                .isEqualTo(ASYNC_JSON_HEAD + "\n  ],\n" + ASYNC_JSON_RESULTS + "  \"contention\": []\n}\n");
        assertThat(asyncReport(false, false, true).toTable()).isEqualTo(ASYNC_TABLE_HEAD + ASYNC_TABLE_CONTENTION);
        assertThat(asyncReport(false, false, true).toJson())
                .isEqualTo(ASYNC_JSON_HEAD + "\n  ],\n  \"results\": [],\n" + ASYNC_JSON_CONTENTION);
    }

    @Test
    void clusterReportTableAndJsonAreUnchanged() {
        assertThat(clusterReport(true).toTable()).isEqualTo(CLUSTER_TABLE);
        assertThat(clusterReport(true).toJson()).isEqualTo(CLUSTER_JSON);
        assertThat(clusterReport(false).toJson()).isEqualTo(EMPTY_CLUSTER_JSON);
    }

    // ---------------------------------------------------------------- the outputs, as the reports wrote them
    // Long lines are continued with a backslash at the line's end (no newline in the text). The
    // async report's are in pieces (head up to the runtimes' end, rows, contention), which its
    // variants share.

    private static final String REPORT_TABLE = """
            Spindle vs ForkJoinPool: 4 workers, median of 5 interleaved rounds after 2 warm-up rounds, 12.3 s, \
            Java 17.0.9+9
            ratio = FJP / Spindle (time: FJP time / Spindle time = Spindle throughput / FJP throughput); > 1 \
            means Spindle is better
            spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's \
            samples
            fjp mode = the faster ForkJoinPool mode in the warm-up rounds (fjp = LIFO default, fjp-async = FIFO)

            workload  Spindle         FJP             fjp mode   ratio     spread         note
            fib         123 ms  +-4%   45.7 ms  +-3%  fjp            0.37      0.30-0.45
            small     0.050 us +-20%   0.00 us        fjp-async  Infinity              -  zero
            odd              -        -2.50 ms +--0%  -               n/a  0.00-Infinity  probe
            ones       5.50 ms +-11%   1.00 ms        fjp            1.23      4.50-7.00
            """;

    private static final String REPORT_JSON = """
            {
              "workers": 4,
              "warmupRounds": 2,
              "rounds": 5,
              "elapsedMillis": 12345,
              "java": "17.0.9+9",
              "ratioDefinition": "ratio = FJP / Spindle (time: FJP time / Spindle time = Spindle throughput / \
            FJP throughput); > 1 means Spindle is better",
              "results": [
                {"workload": "fib", \
            "description": "fib(30) say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", "unit": "ms", \
            "fjpMode": "fjp",
                 "spindle": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, "min": 110.0, "max": 140.0},
                 "fjp": {"n": 5, "median": 45.67, "q1": 44.0, "q3": 47.0, "min": 43.0, "max": 50.0},
                 "ratio": 0.37, "ratioPerRound": {"n": 5, "median": 0.37, "q1": 0.35, "q3": 0.4, "min": 0.3, \
            "max": 0.45}, "note": ""},
                {"workload": "small", "description": "tiny figures", "unit": "us", "fjpMode": "fjp-async",
                 "spindle": {"n": 3, "median": 0.05, "q1": 0.04, "q3": 0.06, "min": 0.03, "max": 0.07},
                 "fjp": {"n": 3, "median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, "max": 0.0},
                 "ratio": null, "ratioPerRound": {"n": 0, "median": null, "q1": null, "q3": null, "min": null, \
            "max": null}, "note": "zero"},
                {"workload": "odd", "description": "odd figures", "unit": "ms", "fjpMode": "-",
                 "spindle": {"n": 0, "median": null, "q1": null, "q3": null, "min": null, "max": null},
                 "fjp": {"n": 1, "median": -2.5, "q1": -2.5, "q3": -2.5, "min": -2.5, "max": -2.5},
                 "ratio": null, "ratioPerRound": {"n": 2, "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, \
            "max": null}, "note": "probe"},
                {"workload": "ones", "description": "ones", "unit": "ms", "fjpMode": "fjp",
                 "spindle": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, "max": 7.0},
                 "fjp": {"n": 2, "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, "max": null},
                 "ratio": 1.2345, "ratioPerRound": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, \
            "max": 7.0}, "note": ""}
              ]
            }
            """;

    private static final String ACTOR_TABLE = """
            Actors, Spindle vs Pekko: 2 workers, median of 3 interleaved rounds after 1 warm-up rounds, 9.9 s, \
            Java 25+36
            ratio = best Spindle throughput / best Pekko throughput (= best Pekko time / best Spindle time); > \
            1 means Spindle is faster; n/a while no Spindle runtime ran
            spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's \
            samples
            spindle-a = Spindle actors say "hi" \\ back
            line\ttab\rcr\001ctl
            pekko-t5 = Pekko, throughput 5

            workload  spindle-a        pekko-t5       best Spindle  best Pekko  ratio  spread     note
            pingpong     123 ms  +-4%   45.7 ms +-3%  spindle-a     pekko-t5     0.37  0.30-0.45  a note
            big        0.050 ms +-20%   0.00 ms       -             -             n/a          -
            count      -2.50 ms +--0%   1.00 ms       spindle-a     -             n/a   0.00-n/a
            """;

    private static final String ACTOR_JSON = """
            {
              "suite": "actors",
              "workers": 2,
              "warmupRounds": 1,
              "rounds": 3,
              "elapsedMillis": 9876,
              "java": "25+36",
              "ratioDefinition": "ratio = best Spindle throughput / best Pekko throughput (= best Pekko time / \
            best Spindle time); > 1 means Spindle is faster; n/a while no Spindle runtime ran",
              "runtimes": [
                {"id": "spindle-a", "family": "Spindle", \
            "description": "Spindle actors say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl"},
                {"id": "pekko-t5", "family": "Pekko", "description": "Pekko, throughput 5"}
              ],
              "results": [
                {"workload": "pingpong", \
            "description": "pingpong say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", "unit": "ms", \
            "messages": 40000,
                 "runtimes": {"spindle-a": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, "min": 110.0, \
            "max": 140.0}, "pekko-t5": {"n": 5, "median": 45.67, "q1": 44.0, "q3": 47.0, "min": 43.0, \
            "max": 50.0}},
                 "bestSpindle": "spindle-a", "bestPekko": "pekko-t5", "ratio": 0.37, "ratioPerRound": {"n": 5, \
            "median": 0.37, "q1": 0.35, "q3": 0.4, "min": 0.3, "max": 0.45}, "note": "a note"},
                {"workload": "big", "description": "big", "unit": "ms", "messages": 123,
                 "runtimes": {"spindle-a": {"n": 3, "median": 0.05, "q1": 0.04, "q3": 0.06, "min": 0.03, \
            "max": 0.07}, "pekko-t5": {"n": 3, "median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, "max": 0.0}},
                 "bestSpindle": null, "bestPekko": null, "ratio": null, "ratioPerRound": {"n": 0, \
            "median": null, "q1": null, "q3": null, "min": null, "max": null}, "note": ""},
                {"workload": "count", "description": "count", "unit": "ms", "messages": 7,
                 "runtimes": {"spindle-a": {"n": 1, "median": -2.5, "q1": -2.5, "q3": -2.5, "min": -2.5, \
            "max": -2.5}, "pekko-t5": {"n": 2, "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, "max": null}},
                 "bestSpindle": "spindle-a", "bestPekko": null, "ratio": null, "ratioPerRound": {"n": 2, \
            "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, "max": null}, "note": ""}
              ]
            }
            """;

    private static final String EMPTY_ACTOR_TABLE = """
            Actors, Spindle vs Pekko: 1 workers, median of 1 interleaved rounds after 0 warm-up rounds, 0.0 s, \
            Java 17
            ratio = best Spindle throughput / best Pekko throughput (= best Pekko time / best Spindle time); > \
            1 means Spindle is faster; n/a while no Spindle runtime ran
            spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's \
            samples

            workload  best Spindle  best Pekko  ratio  spread  note
            """;

    private static final String EMPTY_ACTOR_JSON = """
            {
              "suite": "actors",
              "workers": 1,
              "warmupRounds": 0,
              "rounds": 1,
              "elapsedMillis": 0,
              "java": "17",
              "ratioDefinition": "ratio = best Spindle throughput / best Pekko throughput (= best Pekko time / \
            best Spindle time); > 1 means Spindle is faster; n/a while no Spindle runtime ran",
              "runtimes": [
              ],
              "results": [
              ]
            }
            """;

    private static final String ASYNC_VT_TABLE_HEAD_AND_ROWS = """
            Async, AsyncRuntime vs CompletableFuture on ForkJoinPool and virtual threads: 3 workers, \
            median of 2 interleaved rounds after 1 warm-up rounds, 4.3 s, Java 21.0.2
            async-ws = work stealing say "hi" \\ back
            line\ttab\rcr\001ctl
            cf-fjp = CF on FJP
            vthreads = one per task

            ratio = best AsyncRuntime throughput / best CompletableFuture throughput (= best CF time / best \
            async time); > 1 means AsyncRuntime is faster
            x vthreads = best AsyncRuntime throughput / virtual threads' throughput (= vthreads time / best \
            async time); > 1 means AsyncRuntime is faster
            spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's \
            samples
            workload    async-ws         cf-fjp         vthreads         best async  best CF  ratio  spread     \
            x vthreads  spread     note
            spawn_many    123 ms   +-4%  45.7 ms  +-3%   5.50 ms  +-11%  async-ws    cf-fjp    0.37  0.30-0.45  \
                 22.40  4.50-7.00  n
            yield_many  0.050 ms  +-20%  0.00 ms        -2.50 ms  +--0%  -           -          n/a          -  \
                   n/a   0.00-n/a
            """;

    private static final String ASYNC_TABLE_HEAD = """
            Async, AsyncRuntime vs CompletableFuture on ForkJoinPool: 3 workers, \
            median of 2 interleaved rounds after 1 warm-up rounds, 4.3 s, Java 21.0.2
            async-ws = work stealing say "hi" \\ back
            line\ttab\rcr\001ctl
            cf-fjp = CF on FJP
            """;

    private static final String ASYNC_TABLE_ROWS = """

            ratio = best AsyncRuntime throughput / best CompletableFuture throughput (= best CF time / best \
            async time); > 1 means AsyncRuntime is faster
            spread = min-max of the per-round ratios; +-x% = half the interquartile range of each runtime's \
            samples
            workload    async-ws         cf-fjp         best async  best CF  ratio  spread     note
            spawn_many    123 ms   +-4%  45.7 ms  +-3%  async-ws    cf-fjp    0.37  0.30-0.45  n
            yield_many  0.050 ms  +-20%  0.00 ms        -           -          n/a          -
            """;

    private static final String ASYNC_TABLE_CONTENTION = """

            contention: medians over the measured runs (3 per round) of each run's figures; ws/hy = async-ws \
            p99 / async-hybrid p99 (> 1 means HYBRID's tail is shorter); thr hy/ws = async-hybrid throughput / \
            async-ws throughput
            contention: 40 tasks say "hi" \\ back
            line\ttab\rcr\001ctl
            workload    runtime       tasks/s        wakes p50  p99   max  completion p50  p99      max
            contention  async-ws                 46          6   123    -        0.050 ms  0.00 ms  -2.50 ms
            contention  async-hybrid            123          0     6   46               -  1.00 ms    123 ms
            contention  ws/hy         thr hy/ws n/a             1.50                           n/a
            """;

    private static final String ASYNC_JSON_HEAD = """
            {
              "suite": "async",
              "workers": 3,
              "warmupRounds": 1,
              "rounds": 2,
              "elapsedMillis": 4321,
              "java": "21.0.2",
              "ratioDefinition": "ratio = best AsyncRuntime throughput / best CompletableFuture throughput (= \
            best CF time / best async time); > 1 means AsyncRuntime is faster",
              "vtRatioDefinition": "x vthreads = best AsyncRuntime throughput / virtual threads' throughput (= \
            vthreads time / best async time); > 1 means AsyncRuntime is faster",
              "contentionDefinition": "contention: medians over the measured runs (3 per round) of each run's \
            figures; ws/hy = async-ws p99 / async-hybrid p99 (> 1 means HYBRID's tail is shorter); thr hy/ws = \
            async-hybrid throughput / async-ws throughput",
              "runtimes": [
                {"id": "async-ws", "family": "AsyncRuntime", \
            "description": "work stealing say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl"},
                {"id": "cf-fjp", "family": "CompletableFuture", "description": "CF on FJP"}""";

    private static final String ASYNC_VT_JSON_RESULTS = """
              "results": [
                {"workload": "spawn_many", \
            "description": "spawn_many say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", "unit": "ms", \
            "operations": 10000,
                 "runtimes": {"async-ws": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, "min": 110.0, \
            "max": 140.0}, "cf-fjp": {"n": 5, "median": 45.67, "q1": 44.0, "q3": 47.0, "min": 43.0, \
            "max": 50.0}, "vthreads": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, "max": 7.0}},
                 "bestAsync": "async-ws", "bestCf": "cf-fjp", "ratio": 0.37, "ratioPerRound": {"n": 5, \
            "median": 0.37, "q1": 0.35, "q3": 0.4, "min": 0.3, "max": 0.45},
                 "vtRatio": 22.4, "vtRatioPerRound": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, \
            "max": 7.0}, "note": "n"},
                {"workload": "yield_many", "description": "yield_many", "unit": "ms", "operations": 5,
                 "runtimes": {"async-ws": {"n": 3, "median": 0.05, "q1": 0.04, "q3": 0.06, "min": 0.03, \
            "max": 0.07}, "cf-fjp": {"n": 3, "median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, "max": 0.0}, \
            "vthreads": {"n": 1, "median": -2.5, "q1": -2.5, "q3": -2.5, "min": -2.5, "max": -2.5}},
                 "bestAsync": null, "bestCf": null, "ratio": null, "ratioPerRound": {"n": 0, "median": null, \
            "q1": null, "q3": null, "min": null, "max": null},
                 "vtRatio": null, "vtRatioPerRound": {"n": 2, "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, \
            "max": null}, "note": ""}
              ],
            """;

    private static final String ASYNC_JSON_RESULTS = """
              "results": [
                {"workload": "spawn_many", \
            "description": "spawn_many say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", "unit": "ms", \
            "operations": 10000,
                 "runtimes": {"async-ws": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, "min": 110.0, \
            "max": 140.0}, "cf-fjp": {"n": 5, "median": 45.67, "q1": 44.0, "q3": 47.0, "min": 43.0, \
            "max": 50.0}},
                 "bestAsync": "async-ws", "bestCf": "cf-fjp", "ratio": 0.37, "ratioPerRound": {"n": 5, \
            "median": 0.37, "q1": 0.35, "q3": 0.4, "min": 0.3, "max": 0.45},
                 "vtRatio": null, "vtRatioPerRound": {"n": 0, "median": null, "q1": null, "q3": null, \
            "min": null, "max": null}, "note": "n"},
                {"workload": "yield_many", "description": "yield_many", "unit": "ms", "operations": 5,
                 "runtimes": {"async-ws": {"n": 3, "median": 0.05, "q1": 0.04, "q3": 0.06, "min": 0.03, \
            "max": 0.07}, "cf-fjp": {"n": 3, "median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, "max": 0.0}},
                 "bestAsync": null, "bestCf": null, "ratio": null, "ratioPerRound": {"n": 0, "median": null, \
            "q1": null, "q3": null, "min": null, "max": null},
                 "vtRatio": null, "vtRatioPerRound": {"n": 2, "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, \
            "max": null}, "note": ""}
              ],
            """;

    private static final String ASYNC_JSON_CONTENTION = """
              "contention": [
                {"workload": "contention", \
            "description": "contention: 40 tasks say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", \
            "tasks": 40,
                 "runtimes": {
                   "async-ws": {"tasksPerSecond": {"n": 5, "median": 45.67, "q1": 44.0, "q3": 47.0, \
            "min": 43.0, "max": 50.0}, "wakesP50": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, \
            "max": 7.0}, "wakesP99": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, "min": 110.0, \
            "max": 140.0}, "wakesMax": {"n": 0, "median": null, "q1": null, "q3": null, "min": null, \
            "max": null}, "completionP50Ms": {"n": 3, "median": 0.05, "q1": 0.04, "q3": 0.06, "min": 0.03, \
            "max": 0.07}, "completionP99Ms": {"n": 3, "median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, \
            "max": 0.0}, "completionMaxMs": {"n": 1, "median": -2.5, "q1": -2.5, "q3": -2.5, "min": -2.5, \
            "max": -2.5}},
                   "async-hybrid": {"tasksPerSecond": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, \
            "min": 110.0, "max": 140.0}, "wakesP50": {"n": 3, "median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, \
            "max": 0.0}, "wakesP99": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, "max": 7.0}, \
            "wakesMax": {"n": 5, "median": 45.67, "q1": 44.0, "q3": 47.0, "min": 43.0, "max": 50.0}, \
            "completionP50Ms": {"n": 0, "median": null, "q1": null, "q3": null, "min": null, "max": null}, \
            "completionP99Ms": {"n": 2, "median": 1.0, "q1": 0.0, "q3": null, "min": 0.0, "max": null}, \
            "completionMaxMs": {"n": 5, "median": 123.456, "q1": 120.0, "q3": 130.0, "min": 110.0, \
            "max": 140.0}}},
                 "wakesP99Ratio": 1.5, "completionP99Ratio": null, "throughputRatio": null}
              ]
            }
            """;

    private static final String CLUSTER_TABLE = """
            Cluster graphs on Spindle: median of 3 rounds after 1 warm-up rounds, balance every 100 ms, 5.6 s, \
            Java 17.0.9, 2 cores
            bound = max(total work / total threads, critical path), \
            for graphs of sleeping tasks; data = bytes moved between workers; tcp = bytes the worker processes \
            sent
            config     workers  shape                                 tasks     median   +-  tasks/s     bound  \
            /bound    data     tcp  steals
            inprocess  2x1      tree say "hi" \\ back
            line\ttab\rcr\001ctl     63  5500.0 ms  11%     1235  250.0 ms    1.10  2.5 MB       -       3
            processes  3x2      tiny                                   1000     NaN ms             -         -  \
                 -   999 B  1.5 kB       -
            """;

    private static final String CLUSTER_JSON = """
            {
              "suite": "cluster",
              "system": "spindle",
              "java": "17.0.9",
              "cores": 2,
              "rounds": 3,
              "warmupRounds": 1,
              "balanceMillis": 100,
              "elapsedMillis": 5555,
              "results": [
                {"run": "inprocess/tree say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", \
            "config": "inprocess", "workers": 2, "threads": 1, \
            "shape": "tree say \\"hi\\" \\\\ back\\nline\\ttab\\rcr\\u0001ctl", "tasks": 63,
                 "seconds": {"n": 4, "median": 5.5, "q1": 5.0, "q3": 6.25, "min": 4.5, "max": 7.0},
                 "tasksPerSecond": 1234.5, "boundSeconds": 0.25, "overBound": 1.1, "dataBytes": 2500000.0, \
            "tcpBytesSent": null, "steals": 3.0},
                {"run": "processes/tiny", "config": "processes", "workers": 3, "threads": 2, "shape": "tiny", \
            "tasks": 1000,
                 "seconds": {"n": 0, "median": null, "q1": null, "q3": null, "min": null, "max": null},
                 "tasksPerSecond": null, "boundSeconds": null, "overBound": null, "dataBytes": 999.0, \
            "tcpBytesSent": 1500.0, "steals": null}
              ]
            }
            """;

    private static final String EMPTY_CLUSTER_JSON = """
            {
              "suite": "cluster",
              "system": "spindle",
              "java": "17.0.9",
              "cores": 2,
              "rounds": 3,
              "warmupRounds": 1,
              "balanceMillis": 100,
              "elapsedMillis": 5555,
              "results": []
            }
            """;
}
