/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoHarnessTest {

    private static EchoHarness.Options tiny() {
        return new EchoHarness.Options().workers(2).connections(4).clientThreads(2).seconds(0.2)
                .settleSeconds(0.05).rounds(2).warmupRounds(1);
    }

    /**
     * The harness's report for {@link #tiny()}, run again while a server that can run here
     * completed no request in its measured rounds: on a loaded machine a client or server thread
     * can wait out both 0.2 s rounds (one run in ten did beside a build), and such a report has
     * no latencies or ratios to check. Bounded by the class timeout.
     */
    private static EchoReport aReportWithRequestsOfEveryServer() {
        while (true) {
            EchoReport report = new EchoHarness(tiny()).run();
            if (report.servers().stream()
                    .allMatch(row -> EchoServers.unavailableReason(row.id()) != null || row.requests() > 0)) {
                return report;
            }
        }
    }

    @Test
    void reportsEverySelectedServerWithRatios() {
        EchoReport report = aReportWithRequestsOfEveryServer();
        assertThat(report.servers()).extracting(EchoReport.ServerRow::id).containsExactlyElementsOf(EchoServers.ids());
        for (EchoReport.ServerRow row : report.servers()) {
            if (EchoServers.unavailableReason(row.id()) != null) {
                assertThat(row.unavailable()).isEqualTo("needs JDK 21+");
                assertThat(row.requests()).isZero();
                continue;
            }
            assertThat(row.unavailable()).isNull();
            assertThat(row.requestsPerSecond().n()).isEqualTo(2);       // the measured rounds, not the warm-up
            assertThat(row.requests()).isPositive();
            assertThat(row.p50Micros()).isPositive().isLessThanOrEqualTo(row.p99Micros());
            assertThat(row.p99Micros()).isLessThanOrEqualTo(row.p999Micros());
        }
        assertThat(report.ratio(EchoServers.SPINDLE, EchoServers.NETTY)).isPositive();
        assertThat(report.spindleVsNetty().n()).isEqualTo(2);
        String table = report.toTable();
        assertThat(table).contains("4 connections x 64-byte requests").contains("x netty").contains("p99.9")
                .contains("spindle/netty throughput:");
        if (EchoServers.unavailableReason(EchoServers.VIRTUAL_THREADS) != null) {
            assertThat(table).contains("needs JDK 21+");
            assertThat(report.spindleVsVirtualThreads().n()).isZero();
        }
        assertThat(report.toJson()).startsWith("{").contains("\"suite\": \"echo\"").contains("\"id\": \"netty\"")
                .contains("\"spindleVsNetty\": ").endsWith("}\n");
    }

    @Test
    void runsOnlyTheServersAskedFor() {
        EchoReport report = new EchoHarness(tiny().servers(List.of(EchoServers.NETTY)).rounds(1)).run();
        assertThat(report.servers()).extracting(EchoReport.ServerRow::id).containsExactly(EchoServers.NETTY);
        assertThat(report.ratio(EchoServers.SPINDLE, EchoServers.NETTY)).isNaN();
        assertThat(report.toTable()).contains("spindle/netty throughput: n/a");
        assertThat(report.toJson()).contains("\"spindleVsNetty\": null");
    }

    @Test
    void badOptionsAreNamed() {
        EchoHarness.Options o = new EchoHarness.Options();
        assertThatThrownBy(() -> o.connections(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("connections must be between 1 and 10000, was 0");
        assertThatThrownBy(() -> o.workers(0)).hasMessageContaining("workers must be between 1");
        assertThatThrownBy(() -> o.clientThreads(0)).hasMessageContaining("client threads must be between 1");
        assertThatThrownBy(() -> o.payloadBytes(2 << 20)).hasMessageContaining("payload bytes must be between 1");
        assertThatThrownBy(() -> o.seconds(0)).hasMessage("seconds must be more than 0 and at most 3600, was 0.0");
        assertThatThrownBy(() -> o.seconds(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> o.settleSeconds(-1)).hasMessageContaining("settle seconds");
        assertThatThrownBy(() -> o.rounds(0)).hasMessageContaining("rounds must be between 1");
        assertThatThrownBy(() -> o.warmupRounds(-1)).hasMessageContaining("warm-up rounds must be between 0");
        assertThatThrownBy(() -> o.servers(List.of("netty", "iis"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown echo server 'iis'; valid: spindle, spindle-io-workers, netty, netty-epoll, virtual-threads");
        assertThatThrownBy(() -> o.servers(List.of("netty", "netty"))).hasMessage("echo server 'netty' given twice");
        assertThatThrownBy(() -> o.servers(List.of())).hasMessageContaining("no echo server selected");
        assertThatThrownBy(() -> o.progress(null)).isInstanceOf(NullPointerException.class).hasMessage("progress");
    }

    @Test
    void jsonGivesEachServerItsRatiosToNettyAndVirtualThreads() {
        EchoReport report = new EchoReport(2, 64, 1, 64, 2.0, 0.25, 1, 3, 1000, "17", 2, List.of(
                row(EchoServers.SPINDLE, 300.0, 150.0),
                row(EchoServers.NETTY, 200.0, 100.0),
                EchoReport.ServerRow.unavailable(EchoServers.VIRTUAL_THREADS, "virtual threads", "needs JDK 21+")),
                dev.spindle.bench.quick.Stats.EMPTY, dev.spindle.bench.quick.Stats.EMPTY);
        String json = report.toJson();
        assertThat(json).contains("\"xNetty\": 1.5, \"xVirtualThreads\": null, \"p99VsNetty\": 1.5}")
                .contains("\"xNetty\": 1.0, \"xVirtualThreads\": null, \"p99VsNetty\": 1.0}")
                .contains("\"xNetty\": null, \"xVirtualThreads\": null, \"p99VsNetty\": null}");
        assertThat(report.p99Ratio(EchoServers.SPINDLE, EchoServers.NETTY)).isEqualTo(1.5);
        assertThat(report.p99Ratio(EchoServers.SPINDLE, "no-such-server")).isNaN();
    }

    private static EchoReport.ServerRow row(String id, double requestsPerSecond, double p99Micros) {
        return new EchoReport.ServerRow(id, id, null,
                dev.spindle.bench.quick.Stats.of(List.of(requestsPerSecond)), 1000, 10.0, p99Micros, 2 * p99Micros);
    }

    @Test
    void jsonStringsAreEscaped() {
        assertThat(EchoReport.text("a\"b\\c\nd")).isEqualTo("\"a\\\"b\\\\c\\u000ad\"");
    }

    /**
     * Servers none of which can run on this JVM (virtual threads on JDK 17) were accepted, and the
     * run measured nothing and succeeded; one runnable server among them is still fine.
     */
    @Test
    void aSelectionOfServersNoneOfWhichCanRunHereIsRefused() {
        List<String> unavailable = EchoServers.ids().stream()
                .filter(id -> EchoServers.unavailableReason(id) != null).toList();
        assumeTrue(!unavailable.isEmpty(), "every echo server can run on this JVM");
        String id = unavailable.get(0);
        assertThatThrownBy(() -> new EchoHarness.Options().servers(List.of(id)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no selected echo server can run on this JVM: " + id + " ("
                        + EchoServers.unavailableReason(id) + ")");
        assertThat(new EchoHarness.Options().servers(List.of(EchoServers.SPINDLE, id))).isNotNull();
    }
}
