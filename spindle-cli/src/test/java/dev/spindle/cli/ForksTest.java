/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --forks}: the child command line, the combined figures, and children that fail. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForksTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = SpindleCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void childArgumentsReplaceForksJsonAndProgressInEitherForm() {
        assertThat(Forks.childArguments(List.of("bench", "async", "--forks", "3", "--workloads=a,b", "--json",
                "--progress", "bar", "--rounds", "2")))
                .containsExactly("bench", "async", "--workloads=a,b", "--rounds", "2", "--json", "--progress=none");
        assertThat(Forks.childArguments(List.of("bench", "--forks=4", "--progress=lines", "--workers", "2")))
                .containsExactly("bench", "--workers", "2", "--json", "--progress=none");
    }

    @Test
    void childJvmOptionsLeaveOutTheDebuggerAndFlightRecordings() {
        assertThat(Forks.childJvmOptions(List.of("-Xmx2g", "-agentlib:jdwp=transport=dt_socket,server=y",
                "-XX:StartFlightRecording=filename=a.jfr", "-XX:FlightRecorderOptions=stackdepth=96",
                "-Xrunjdwp:transport=dt_socket", "-XX:+AlwaysPreTouch"), 1))
                .containsExactly("-Xmx2g", "-XX:+AlwaysPreTouch");
    }

    @Test
    void summaryIsTheMedianOverTheJvmsThatHaveTheFigure() {
        List<Map<String, Object>> reports = new ArrayList<>();
        reports.add(report("{\"results\": [{\"workload\": \"fib\", \"ratio\": 0.8, \"vtRatio\": null},"
                + " {\"workload\": \"skynet\", \"ratio\": 1.5}]}"));
        reports.add(report("{\"results\": [{\"workload\": \"fib\", \"ratio\": 1.2}]}"));
        reports.add(report("{\"results\": [{\"workload\": \"skynet\", \"ratio\": 1.1},"
                + " {\"workload\": \"fib\", \"ratio\": 0.9}]}"));
        List<Forks.Summary> s = Forks.summarize(reports, Forks.ASYNC);
        assertThat(s).hasSize(2);                // no vtRatio anywhere: no row for it
        assertThat(s.get(0).workload()).isEqualTo("fib");
        assertThat(s.get(0).median()).isEqualTo(0.9);
        assertThat(s.get(0).min()).isEqualTo(0.8);
        assertThat(s.get(0).max()).isEqualTo(1.2);
        assertThat(s.get(1).workload()).isEqualTo("skynet");
        assertThat(s.get(1).perJvm()).containsExactly(1.5, Double.NaN, 1.1);
        assertThat(s.get(1).median()).isEqualTo(1.3);   // the mean of the middle two of an even count

        String table = Forks.toTable("spindle bench async", reports, s, 0.5);
        assertThat(table).contains("in 3 JVMs")
                .containsPattern("fib +0\\.90 +0\\.80-1\\.20 +0\\.80 +1\\.20 +0\\.90")
                .containsPattern("skynet +1\\.30 +1\\.10-1\\.50 +1\\.50 +- +1\\.10");
    }

    @Test
    void benchInTwoJvmsPrintsEachJvmsRatioAndTheirMedian() {
        assertThat(run("bench", "--workloads", "chained-spawn", "--rounds", "1", "--warmup", "1",
                "--workers", "2", "--forks", "2", "--progress", "none")).isZero();
        assertThat(out.toString()).contains("spindle bench in 2 JVMs")
                .containsPattern("chained-spawn +\\d+\\.\\d\\d +\\d+\\.\\d\\d-\\d+\\.\\d\\d +\\d+\\.\\d\\d +\\d+\\.\\d\\d");
    }

    /**
     * The JSON of a command in two JVMs; the command is the one that
     * {@link #aDebuggerGivenThroughJavaToolOptionsDoesNotReachTheChildren} runs, so that one
     * parent and two children serve both (its children's reports are the ones checked here).
     */
    @Test
    void benchInTwoJvmsAsJsonKeepsEachJvmsReport() throws Exception {
        ForkedRun r = forkedJsonRun();
        assertThat(r.status).as("exit status; stderr:%n%s", r.stderr).isZero();
        // the parent's debugger agent prints its address first, on standard output: the report follows
        String stdout = r.stdout;
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(stdout.substring(stdout.indexOf("\n{") + 1));
        assertThat(json.get("forks")).isEqualTo(2.0);
        assertThat((List<?>) json.get("jvms")).hasSize(2)
                .allSatisfy(j -> assertThat(((Map<?, ?>) j).get("results")).asList().hasSize(1));
        assertThat((List<?>) json.get("summary")).singleElement()
                .satisfies(s -> assertThat(((Map<?, ?>) s).get("perJvm")).asList().hasSize(2));
    }

    @Test
    void echoInTwoJvmsPrintsEachServersRatiosAndP99AgainstNetty() {
        assertThat(run("bench", "echo", "--servers", "spindle,netty", "--connections", "4", "--seconds", "0.2",
                "--settle", "0.05", "--rounds", "1", "--warmup", "1", "--workers", "2", "--forks", "2",
                "--progress", "none")).isZero();
        assertThat(out.toString()).contains("spindle bench echo in 2 JVMs").contains("each 2 workers, 4 connections,")
                .contains("requests/s / Netty NIO's requests/s").contains("p99 latency / Netty NIO's p99 latency")
                .containsPattern("server +median +min-max +JVM 1 +JVM 2")
                .containsPattern("spindle +\\d+\\.\\d\\d +\\d+\\.\\d\\d-\\d+\\.\\d\\d +\\d+\\.\\d\\d +\\d+\\.\\d\\d")
                .containsPattern("netty +1\\.00 +1\\.00-1\\.00 +1\\.00 +1\\.00")
                .doesNotContain("virtual threads' requests/s");     // not asked for: no such table
    }

    @Test
    void clusterInTwoJvmsPrintsEachRunsThroughputAndMakespanOverItsBound() {
        assertThat(run("bench", "cluster", "--configs", "inprocess", "--shapes", "tiny,skewed", "--size", "tiny",
                "--rounds", "1", "--warmup", "1", "--forks", "2", "--progress", "none")).isZero();
        assertThat(out.toString()).contains("spindle bench cluster in 2 JVMs").contains("each run's own workers,")
                .contains("tasks per second (median of the rounds), per configuration/shape")
                .contains("makespan / its lower bound")
                .containsPattern("run +median +min-max +JVM 1 +JVM 2")
                .containsPattern("inprocess/tiny +\\d+")
                .containsPattern("inprocess/skewed +\\d+");
    }

    @Test
    void aChildThatFailsOrWritesNoReportFailsTheCommand(@TempDir Path dir) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path report = Files.createFile(dir.resolve("report.json"));
        List<String> missingMain = List.of(java, "-cp", System.getProperty("java.class.path"), "no.such.Main");
        assertThatThrownBy(() -> Forks.runChild(missingMain, report, 1, 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("JVM 1 of 2 exited with status 1");
        String nothing = Forks.runChild(List.of(java, "-version"), report, 2, 2);   // writes no report
        assertThatThrownBy(() -> Forks.asReport(nothing, 2, 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("JVM 2 of 2 wrote no report");
        assertThatThrownBy(() -> Forks.asReport("[1, 2]", 1, 1)).hasMessageContaining("not a JSON object");
    }

    @Test
    void aChildDoesNotOutliveItsParent() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process parent = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SpindleCli.class.getName(), "bench", "--workloads", "fib", "--rounds", "100000", "--warmup", "1",
                "--workers", "1", "--forks", "2", "--progress", "none")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<ProcessHandle> children = List.of();
        try {
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    children.isEmpty() && System.nanoTime() < deadline; ) {
                Thread.sleep(1);               // SIGTERM as soon as the child shows, while it is being started
                children = parent.children().toList();
            }
            assertThat(children).as("the first child JVM").hasSize(1);
            ProcessHandle child = children.get(0);
            parent.destroy();                  // SIGTERM: the parent's shutdown hooks run
            assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
            child.onExit().get(30, TimeUnit.SECONDS);   // a leftover child runs 100,000 rounds
            assertThat(child.isAlive()).isFalse();
        } finally {
            children.forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
        }
    }

    /*
     * Found by review (H104): a parent stopped by a signal (SIGTERM, or Ctrl-C's SIGINT) while a
     * child ran left the child's report file behind in the temporary directory: the shutdown hooks
     * destroyed the child, but the JVM ended before the parent's wait for it returned to the
     * finally that deletes the file.
     */
    @Test
    void aSigtermLeavesNoReportFileBehind(@TempDir Path tmp) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process parent = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                SpindleCli.class.getName(), "bench", "--workloads", "fib", "--rounds", "100000", "--warmup", "1",
                "--workers", "1", "--forks", "2", "--progress", "none")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<ProcessHandle> children = List.of();
        try {
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    children.isEmpty() && System.nanoTime() < deadline; ) {
                Thread.sleep(1);               // another process: polled
                children = parent.children().toList();
            }
            assertThat(children).as("the first child JVM").hasSize(1);
            assertThat(reportFiles(tmp)).as("the first child's report file").hasSize(1);
            parent.destroy();                  // SIGTERM: the parent's shutdown hooks run
            assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
            children.get(0).onExit().get(30, TimeUnit.SECONDS);
            assertThat(reportFiles(tmp)).as("report files left in the temporary directory").isEmpty();
        } finally {
            children.forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
        }
    }

    private static List<Path> reportFiles(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("spindle-forks-")).toList();
        }
    }

    @Test
    void outputBeyondTheBoundIsRefused() throws IOException {
        byte[] big = "x".repeat(100).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Forks.readBounded(new ByteArrayInputStream(big), 99))
                .isInstanceOf(IOException.class).hasMessageContaining("more than 99 bytes");
        assertThat(Forks.readBounded(new ByteArrayInputStream(big), 100)).hasSize(100);
    }

    @Test
    void badForkCountsAreUsageErrors() {
        assertThat(run("bench", "--forks", "0", "--workloads", "fib")).isEqualTo(2);
        assertThat(err.toString()).contains("--forks must be between 1 and 100, was 0");
        assertThat(run("bench", "async", "--forks", "101")).isEqualTo(2);
        assertThat(run("bench", "actors", "--forks", "two")).isEqualTo(2);
        assertThat(run("bench", "cluster", "--forks", "0")).isEqualTo(2);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> report(String json) {
        return (Map<String, Object>) MiniJson.parse(json);
    }

    /*
     * Found by review (session 41), both failing before the fix: a child of --forks got the
     * parent's JMX remote agent (whose port the parent held: the child failed to start it), and
     * a debugger agent given through JAVA_TOOL_OPTIONS reached each child through the inherited
     * environment, past the filter of its command line ("bind failed", the command failed).
     */
    @Test
    void aJmxRemotePortIsNotGivenToTheChildren() {
        List<String> parent = List.of("-Xmx1g", "-Dcom.sun.management.jmxremote.port=9010",
                "-Dcom.sun.management.jmxremote.rmi.port=9011", "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false", "-Dcom.sun.management.jmxremote", "-Dfoo=bar");
        assertThat(Forks.childJvmOptions(parent, 1)).containsExactly("-Xmx1g", "-Dfoo=bar");
    }

    @Test
    void aDebuggerGivenThroughJavaToolOptionsDoesNotReachTheChildren() throws Exception {
        ForkedRun r = forkedJsonRun();
        assertThat(r.status).as("exit status; stderr:%n%s", r.stderr).isZero();
        assertThat(r.stderr).doesNotContain("bind failed");
        assertThat(r.stdout).contains("\"forks\": 2");
    }

    /** What a command in its own JVM printed, and its exit status. */
    private record ForkedRun(int status, String stdout, String stderr) { }

    /** The run of {@link #forkedJsonRun}, made by the first test that asks for it. */
    private static ForkedRun forkedJsonRun;

    /**
     * {@code bench --forks 2 --json} in a JVM of its own, with a debugger agent given through
     * {@code JAVA_TOOL_OPTIONS} (inherited by the children unless the parent filters it out);
     * run once for the class, since its three JVMs are the bulk of the time of the two tests that
     * read it.
     */
    private static synchronized ForkedRun forkedJsonRun() throws Exception {
        if (forkedJsonRun != null) {
            return forkedJsonRun;
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SpindleCli.class.getName(), "bench", "--workloads", "chained-spawn", "--rounds", "1", "--warmup", "1",
                "--workers", "1", "--forks", "2", "--progress", "none", "--json");
        pb.environment().put("JAVA_TOOL_OPTIONS",
                "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + port);
        Path dir = Files.createTempDirectory("forks-test");
        File out = dir.resolve("out.txt").toFile();
        File err = dir.resolve("err.txt").toFile();
        pb.redirectOutput(out).redirectError(err);
        Process p = pb.start();
        try {
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("the command ended").isTrue();
            forkedJsonRun = new ForkedRun(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
                    Files.readString(err.toPath(), StandardCharsets.UTF_8));
            return forkedJsonRun;
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Files.deleteIfExists(out.toPath());
            Files.deleteIfExists(err.toPath());
            Files.deleteIfExists(dir);
        }
    }
}
