/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpindleCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = SpindleCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void noArgumentsPrintsHelp() {
        assertThat(run()).isZero();
        assertThat(out.toString()).contains("Usage: spindle").contains("bench").contains("demo");
    }

    /** {@code test} is a command of the ./spindle script, not of the jar; the help lists it all the same. */
    @Test
    void helpListsTheScriptsTestCommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).containsPattern("(?m)^  test\\b").contains("./spindle test").contains("-Dspin.skip");
    }

    @Test
    void helpListsTheScriptsCertsCommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).containsPattern("(?m)^  certs\\b").contains("./spindle certs DIR");
    }

    @Test
    void versionNamesTheProject() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).startsWith("spindle ").doesNotContain("${")
                .contains("Java " + System.getProperty("java.version"));
    }

    @Test
    void consolePrintsItsLoopbackUrlAndStopsAfterItsDuration() {
        assertThat(run("console", "--duration", "1")).isZero();
        assertThat(out.toString())
                .containsPattern("Spindle console: http://127\\.0\\.0\\.1:\\d+/\\?token=[A-Za-z0-9_-]{32}\\n")
                .contains("Stops after 1 s.");
    }

    /**
     * The console on loopback had no token unless one was given: every user of the machine (any
     * local process can connect to 127.0.0.1) read the application's task and class names from
     * it. Now a random token is made and printed once in the URL; a request without it is refused.
     */
    @Test
    void anotherLocalUserCannotReadTheLoopbackConsole() throws Exception {
        // the duration only bounds a console left running; the interrupt below ends it once the
        // two requests are answered (its wait throws, and the command's resources are closed)
        Thread console = new Thread(() -> run("console", "--duration", "50"));
        console.start();
        try {
            Matcher url = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/)(\\S*)").matcher("");
            while (!url.reset(out.toString()).find()) {
                assertThat(console.isAlive()).as("the console still starting; err: %s", err).isTrue();
                Thread.sleep(20);
            }
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> stranger = http.send(HttpRequest.newBuilder(URI.create(url.group(1))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stranger.statusCode()).as("a request without the token").isEqualTo(401);
            HttpResponse<String> owner = http.send(HttpRequest.newBuilder(URI.create(url.group(0))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(owner.statusCode()).as("the printed URL").isEqualTo(200);
        } finally {
            console.interrupt();
            console.join();
        }
    }

    @Test
    void consoleWithoutATokenOnlyWhenAskedAndOnlyOnLoopback() {
        assertThat(run("console", "--no-token", "--duration", "1")).isZero();
        assertThat(out.toString()).containsPattern("Spindle console: http://127\\.0\\.0\\.1:\\d+/\\n");
        assertThat(run("console", "--no-token", "--bind", "0.0.0.0", "--duration", "1")).isNotZero();
        assertThat(err.toString()).contains("--no-token is for a loopback --bind only");
        assertThat(run("console", "--no-token", "--token", "option-token-0123456789", "--duration", "1")).isNotZero();
        assertThat(err.toString()).contains("--no-token and --token contradict each other");
    }

    /** The JDK server's JVM-wide limits are set for the console, except one given with -D. */
    @Test
    void consoleSetsTheHttpServersLimitsUnlessGiven() {
        String given = System.getProperty("sun.net.httpserver.maxIdleConnections");
        System.setProperty("sun.net.httpserver.maxIdleConnections", "7");
        try {
            assertThat(run("console", "--duration", "1")).isZero();
            assertThat(System.getProperty("sun.net.httpserver.maxIdleConnections")).isEqualTo("7");
            assertThat(System.getProperty("sun.net.httpserver.maxReqTime")).isEqualTo("10");
            assertThat(System.getProperty("jdk.httpserver.maxConnections")).isEqualTo("64");
        } finally {
            if (given == null) {
                System.clearProperty("sun.net.httpserver.maxIdleConnections");
            } else {
                System.setProperty("sun.net.httpserver.maxIdleConnections", given);
            }
        }
    }

    @Test
    void consoleOnANonLoopbackAddressGetsARandomToken() {
        assertThat(run("console", "--bind", "0.0.0.0", "--duration", "1")).isZero();
        assertThat(out.toString()).containsPattern("http://127\\.0\\.0\\.1:\\d+/\\?token=[A-Za-z0-9_-]{32}");
    }

    @Test
    void consoleTakesItsTokenFromTheEnvironmentWhenNotGiven() {
        assertThat(ConsoleCommand.token(null, java.util.Map.of(ConsoleCommand.TOKEN_ENV, " env-token-0123456789 ")))
                .isEqualTo("env-token-0123456789");
        assertThat(ConsoleCommand.token("option-token-0123456789", java.util.Map.of(ConsoleCommand.TOKEN_ENV, "x")))
                .as("the option wins").isEqualTo("option-token-0123456789");
        assertThat(ConsoleCommand.token(null, java.util.Map.of(ConsoleCommand.TOKEN_ENV, "  "))).isNull();
        assertThat(ConsoleCommand.token(null, java.util.Map.of())).isNull();
        assertThat(run("console", "--help")).isZero();
        assertThat(out.toString()).contains(ConsoleCommand.TOKEN_ENV);
    }

    @Test
    void consoleRefusesAShortToken() {
        assertThat(run("console", "--token", "short", "--duration", "1")).isNotZero();
        assertThat(err.toString()).contains("token must have 16");
    }

    @Test
    void demoPrintsTheCheckedResultAndPerWorkerCounters() {
        assertThat(run("demo", "--workers", "2", "--n", "18")).isZero();
        String s = out.toString();
        assertThat(s).contains("fib(18) = 2584 (checked)").contains("2 workers").contains("4,180 tasks spawned");
        assertThat(s).contains("worker").contains("executed").contains("stolen from");
        assertThat(s.lines().filter(l -> l.startsWith("0 ") || l.startsWith("1 ")).count()).isEqualTo(2);
        // every spawned task and the root ran exactly once
        assertThat(s.lines().filter(l -> l.startsWith("total")).findFirst().orElseThrow()).contains("4,181");
    }

    @Test
    void benchPrintsATable() {
        assertThat(run("bench", "--workloads", "chained-spawn,skynet", "--rounds", "1", "--warmup", "1",
                "--workers", "2", "--progress", "none")).isZero();
        assertThat(out.toString()).contains("ratio = FJP / Spindle").contains("chained-spawn").contains("skynet");
    }

    @Test
    void benchPrintsJson() {
        assertThat(run("bench", "--workloads", "chained-spawn", "--rounds", "1", "--warmup", "1",
                "--progress", "none", "--json")).isZero();
        assertThat(out.toString()).startsWith("{").contains("\"workload\": \"chained-spawn\"");
    }

    @Test
    void benchActorsPrintsATableOfPekkoRuntimes() {
        assertThat(run("bench", "actors", "--workloads", "pingpong,count", "--rounds", "1", "--warmup", "1",
                "--workers", "2", "--progress", "none")).isZero();
        assertThat(out.toString()).contains("best Spindle throughput / best Pekko throughput")
                .contains("pekko-t5").contains("pekko-t100").contains("pingpong").contains("count");
    }

    @Test
    void benchActorsPrintsJson() {
        assertThat(run("bench", "actors", "--workloads", "threadring", "--runtimes", "pekko-t100", "--rounds", "1",
                "--warmup", "1", "--progress", "none", "--json")).isZero();
        assertThat(out.toString()).startsWith("{").contains("\"workload\": \"threadring\"")
                .contains("\"pekko-t100\": {").doesNotContain("\"pekko-t5\"");
    }

    @Test
    void benchHelpNamesTheActorsCommand() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("actors");
        assertThat(run("bench", "actors", "--help")).isZero();
        assertThat(out.toString()).contains("pekko-t5, pekko-t100").contains("chameneos");
    }

    @Test
    void benchAsyncRunsATinySelection() {
        assertThat(run("bench", "async", "--workloads", "chained_spawn,contention", "--runtimes", "async-ws,async-hybrid,cf-fjp",
                "--rounds", "1", "--warmup", "1", "--workers", "2", "--progress", "none")).isZero();
        assertThat(out.toString()).contains("best AsyncRuntime throughput / best CompletableFuture throughput")
                .contains("chained_spawn").contains("async-hybrid").contains("wakes p50").contains("ws/hy");
    }

    @Test
    void benchAsyncHelpNamesWorkloadsAndRuntimes() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("async");
        assertThat(run("bench", "async", "--help")).isZero();
        assertThat(out.toString()).contains("async-ws, async-hybrid, cf-fjp").contains("spawn_many")
                .contains("contention");
        assertThat(run("bench", "async", "--workloads", "fib")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'fib'");
        assertThat(run("bench", "async", "--runtimes", "tokio")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown async runtime 'tokio'");
        assertThat(out.toString()).contains("vthreads").contains("x vthreads");
        if (Runtime.version().feature() < 21) {
            assertThat(run("bench", "async", "--runtimes", "async-ws,vthreads")).isEqualTo(2);
            assertThat(err.toString()).contains("async runtime 'vthreads' needs JDK 21+ (virtual threads), this is Java 17");
        }
    }

    @Test
    void badArgumentsExitWithTwoAndSayWhy() {
        assertThat(run("bench", "--workers", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--workers must be between 1");
        assertThat(run("bench", "--workloads", "fib,nope")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'nope'");
        assertThat(run("bench", "--rounds", "many")).isEqualTo(2);
        assertThat(run("bench", "--progress", "fancy", "--workloads", "fib")).isEqualTo(2);
        assertThat(run("bench", "actors", "--workloads", "fib")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'fib'");
        assertThat(run("bench", "actors", "--runtimes", "akka")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown actor runtime 'akka'");
        assertThat(run("bench", "actors", "--workers", "0")).isEqualTo(2);
        assertThat(run("demo", "--n", "-1")).isEqualTo(2);
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(err.toString()).contains("Try 'spindle --help'");
        assertThat(out.toString()).isEmpty();
    }

    /** {@code spindle bench cluster} at smoke-test sizes: every run checks its results, so exit 0 means right answers. */
    @Test
    void benchClusterInProcessPrintsATableOfEveryShape() {
        assertThat(run("bench", "cluster", "--configs", "inprocess", "--size", "tiny", "--rounds", "1", "--warmup", "1",
                "--progress", "none")).as(err.toString()).isZero();
        String table = out.toString();
        assertThat(table).contains("Cluster graphs on Spindle").contains("/bound");
        for (String shape : new String[] {"tiny", "tree", "skewed", "shuffle"}) {
            assertThat(table).containsPattern("(?m)^inprocess\\s+4x2\\s+" + shape + "\\s");
        }
    }

    @Test
    void benchClusterJsonHasTheShapeDaskBenchPrints() {
        assertThat(run("bench", "cluster", "--configs", "inprocess", "--shapes", "skewed", "--size", "tiny",
                "--inprocess-workers", "2", "--threads", "1", "--rounds", "2", "--warmup", "1", "--progress", "none",
                "--json")).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("{").contains("\"suite\": \"cluster\"").contains("\"system\": \"spindle\"")
                .contains("\"config\": \"inprocess\", \"workers\": 2, \"threads\": 1, \"shape\": \"skewed\", \"tasks\": 8")
                .contains("\"seconds\": {\"n\": 2").contains("\"boundSeconds\": 0.02,").doesNotContain("\"shape\": \"tree\"");
    }

    /** Worker JVMs on Hazelcast: the coordinator here, two workers started with this JVM's class path. */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void benchClusterWorkerProcessesRunTheGraphsAndReportTheirTcpBytes() {
        assertThat(run("bench", "cluster", "--configs", "processes", "--process-workers", "2", "--shapes", "tiny,shuffle",
                "--size", "tiny", "--rounds", "1", "--warmup", "1", "--progress", "none", "--json"))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"config\": \"processes\", \"workers\": 2, \"threads\": 2, \"shape\": \"tiny\"")
                .contains("\"shape\": \"shuffle\"").containsPattern("\"tcpBytesSent\": [1-9]")
                .contains("\"dataBytes\": null");
    }

    @Test
    void benchClusterRefusesBadArgumentsByName() {
        assertThat(run("bench", "cluster", "--shapes", "ring")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'ring'");
        assertThat(run("bench", "cluster", "--configs", "yarn")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown cluster configuration 'yarn'");
        assertThat(run("bench", "cluster", "--threads", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("threads per worker must be between 1 and 64");
        assertThat(run("bench", "cluster", "--size", "huge")).isEqualTo(2);
        assertThat(err.toString()).contains("--size must be quick or tiny");
        assertThat(run("bench", "cluster", "--rounds", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--rounds must be between 1");
        // a worker count for a configuration left out would be ignored: the run would not be the one meant
        assertThat(run("bench", "cluster", "--configs", "inprocess", "--process-workers", "8")).isEqualTo(2);
        assertThat(err.toString()).contains("--process-workers sets the workers of the processes configuration,"
                + " which --configs inprocess leaves out");
        assertThat(run("bench", "cluster", "--configs", "processes", "--inprocess-workers", "8")).isEqualTo(2);
        assertThat(err.toString()).contains("--inprocess-workers sets the workers of the inprocess configuration");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void benchHelpNamesTheClusterCommand() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("cluster");
        assertThat(run("bench", "cluster", "--help")).isZero();
        assertThat(out.toString()).contains("tiny, tree, skewed, shuffle").contains("inprocess, processes")
                .contains("dask-compare.sh");
    }
}
