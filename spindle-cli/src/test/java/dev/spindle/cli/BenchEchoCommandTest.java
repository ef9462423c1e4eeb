/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BenchEchoCommandTest {

    /** {@code bench echo} with a run of a fraction of a second, then {@code more}. */
    private static CliOutcome tiny(String... more) {
        List<String> args = new ArrayList<>(List.of("bench", "echo", "--connections", "4", "--seconds", "0.2",
                "--settle", "0.05", "--rounds", "1", "--warmup", "1", "--workers", "2", "--progress", "none"));
        args.addAll(List.of(more));
        return CliOutcome.run(args.toArray(new String[0]));
    }

    @Test
    void printsATableOfEveryServer() {
        CliOutcome r = tiny();
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("4 connections x 64-byte requests").contains("requests/s").contains("p99.9")
                .contains("spindle").contains("netty").contains("virtual-threads").contains("spindle/netty throughput:");
        if (Runtime.version().feature() < 21) {
            assertThat(r.out()).contains("needs JDK 21+");
        } else {
            assertThat(r.out()).doesNotContain("needs JDK 21+");
        }
        assertThat(r.err()).isEmpty();
    }

    @Test
    void printsJsonOfTheServersAskedFor() {
        CliOutcome r = tiny("--servers", "netty", "--payload", "100", "--json");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("{").contains("\"suite\": \"echo\"").contains("\"payloadBytes\": 100")
                .contains("\"id\": \"netty\"").doesNotContain("\"id\": \"spindle\"");
    }

    /** Only servers that cannot run on this JVM: a usage error, not a run that measures nothing. */
    @Test
    void serversNoneOfWhichCanRunHereAreAUsageError() {
        assumeTrue(Runtime.version().feature() < 21, "virtual threads run on this JVM");
        CliOutcome r = CliOutcome.run("bench", "echo", "--servers", "virtual-threads");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no selected echo server can run on this JVM: virtual-threads (needs JDK 21+)");
    }

    @Test
    void helpNamesTheServersAndTheBenchCommandNamesEcho() {
        assertThat(CliOutcome.run("bench", "--help").out()).contains("'spindle bench echo'");
        CliOutcome r = CliOutcome.run("bench", "echo", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("spindle, spindle-io-workers, netty, netty-epoll, virtual-threads").contains("--connections")
                .contains("--seconds").contains("--client-threads");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--connections    | 0      | connections must be between 1 and 10000, was 0",
        "--seconds        | 0      | seconds must be more than 0",
        "--payload        | -1     | payload bytes must be between 1",
        "--servers        | tomcat | unknown echo server 'tomcat'",
        "--workers        | 0      | --workers must be between 1",
        "--client-threads | x      | Invalid value for option '--client-threads'",
    })
    void aBadOptionExitsWithTwoAndSaysWhy(String option, String value, String message) {
        CliOutcome r = CliOutcome.run("bench", "echo", option, value);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
    }
}
