/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad command lines that the CLI ran anyway, or ran differently than asked, or refused as a failed run. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CliRegressionTest {

    /**
     * {@code bench --forks 2 cluster ...} (the order the launcher's comment gives) ran the cluster
     * suite once, in this JVM, with exit 0: {@code --forks} went to {@code bench} (the fork/join
     * suite), which does not run when a subcommand follows, so the option was silently dropped.
     */
    @Test
    void forksGivenBeforeTheBenchSubcommandIsRefusedNotDropped() {
        CliOutcome r = CliOutcome.run("bench", "--forks", "2", "cluster", "--configs", "inprocess", "--shapes", "tiny", "--size", "tiny",
                "--rounds", "1", "--warmup", "1", "--progress", "none");
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err()).contains("'--forks'").contains("before 'cluster'");
        assertThat(r.out()).isEmpty();
    }

    /**
     * {@code bench --json actors ...} printed the actor suite's table, not JSON, with exit 0; and
     * {@code bench --rounds 0 async ...} never checked {@code --rounds 0}: options of {@code bench}
     * before a subcommand were parsed for the fork/join suite and ignored.
     */
    @Test
    void otherBenchOptionsBeforeASubcommandAreRefusedNotIgnored() {
        CliOutcome json = CliOutcome.run("bench", "--json", "actors", "--workloads", "pingpong", "--runtimes", "pekko-t100",
                "--rounds", "1", "--warmup", "1", "--workers", "1", "--progress", "none");
        assertThat(json.exit()).as(json.out() + json.err()).isEqualTo(2);
        assertThat(json.err()).contains("'--json'").contains("before 'actors'");
        assertThat(json.out()).isEmpty();

        CliOutcome rounds = CliOutcome.run("bench", "--rounds", "0", "async", "--workloads", "chained_spawn");
        assertThat(rounds.exit()).isEqualTo(2);
        assertThat(rounds.err()).contains("'--rounds'").contains("before 'async'");
    }

    /**
     * {@code bench @FILE --forks 2} gave the children the unexpanded {@code @FILE} next to the
     * {@code --json --progress=none} that replace the file's own {@code --progress}: every child
     * exited 2 ("option '--progress' (MODE) should be specified only once") and the command failed
     * with exit 1. (By the same path a file holding {@code --forks} would make each child fork again.)
     */
    @Test
    void forkedChildrenGetTheArgumentFilesOptionsExpanded(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bench.args");
        Files.writeString(file, "--workloads chained-spawn --rounds 1 --warmup 1 --workers 1 --progress none\n",
                StandardCharsets.UTF_8);
        CliOutcome r = CliOutcome.run("bench", "@" + file, "--forks", "2", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(r.out());
        assertThat(json.get("childArguments")).asList().containsExactly("bench", "--workloads", "chained-spawn",
                "--rounds", "1", "--warmup", "1", "--workers", "1", "--json", "--progress=none");
        assertThat((List<?>) json.get("jvms")).hasSize(2);
        // an expanded argument that starts with @ reaches the child as itself, not as a file to read
        assertThat(Forks.childArguments(List.of("bench", "--workloads", "@literal")))
                .containsExactly("bench", "--workloads", "@@literal", "--json", "--progress=none");
    }

    /**
     * {@code console --bind} with an address that does not resolve (here an invalid IPv6 literal;
     * a mistyped host name does the same) ended as a failed run, exit 1 ("spindle console: error:
     * [1::: invalid IPv6 address literal"), not as the usage error (exit 2) that names the option.
     */
    @Test
    void consoleRefusesABindAddressThatDoesNotResolveAsAUsageError() {
        CliOutcome r = CliOutcome.run("console", "--bind", "[1::", "--duration", "1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--bind").contains("[1::");
        assertThat(r.out()).isEmpty();
    }

    /** {@code console --bind ""} silently listened on 127.0.0.1 (what InetAddress makes of "") and exited 0. */
    @Test
    void consoleRefusesAnEmptyBindAddress() {
        CliOutcome r = CliOutcome.run("console", "--bind", "", "--duration", "1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--bind");
        assertThat(r.out()).isEmpty();
    }

    /**
     * A name given twice in a list option was dropped silently and the suite ran (exit 0), while
     * {@code bench echo --servers netty,netty} is refused as a usage error that names the server:
     * a repeated name is as likely a typo for another name as a harmless repeat, so every list
     * option now refuses it the same way. The other options keep a run that slips through short.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bench          | --workloads | chained-spawn,chained-spawn | workload 'chained-spawn' given twice",
        "bench          | --workloads | chained-spawn,CHAINED-SPAWN | workload 'CHAINED-SPAWN' given twice",
        "bench actors   | --workloads | count,count                 | workload 'count' given twice",
        "bench actors   | --runtimes  | pekko-t100,pekko-t100       | actor runtime 'pekko-t100' given twice",
        "bench async    | --workloads | chained_spawn,chained_spawn | workload 'chained_spawn' given twice",
        "bench async    | --runtimes  | cf-fjp,cf-fjp               | async runtime 'cf-fjp' given twice",
    })
    void aNameGivenTwiceInAListOptionIsAUsageErrorNamingIt(String command, String option, String names,
                                                           String message) {
        List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of(option, names, "--rounds", "1", "--warmup", "1", "--workers", "1", "--progress", "none"));
        CliOutcome r = CliOutcome.run(args.toArray(new String[0]));
        assertThat(r.exit()).as("exit of %s (stderr: %s)", args, r.err().strip()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
    }

    /*
     * Found by review (session 41), failing before the fix: the console command passed the
     * library's messages on unchanged, naming neither --port nor where a bad token came from.
     */
    @Test
    void aPortOutOfRangeIsRefusedNamingTheOption() {
        CliOutcome r = CliOutcome.run("console", "--port", "70000", "--duration", "1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--port");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aBadTokenFromTheOptionIsRefusedNamingTheOption() {
        CliOutcome r = CliOutcome.run("console", "--token", "short", "--duration", "1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--token");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aBadTokenFromTheEnvironmentIsRefusedNamingTheVariable() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SpindleCli.class.getName(), "console", "--duration", "1").redirectErrorStream(true);
        pb.environment().put(ConsoleCommand.TOKEN_ENV, "short");
        Process p = pb.start();
        try {
            p.getOutputStream().close();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the command ended").isTrue();
            assertThat(p.exitValue()).as("exit status; output:%n%s", output).isEqualTo(2);
            assertThat(output).contains(ConsoleCommand.TOKEN_ENV).doesNotContain("Spindle console: http");
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * A failure whose causes loop back ({@code a.initCause(b); b.initCause(a)}: allowed, only a
     * cause that is the throwable itself is refused) printed its causes for good.
     */
    @Test
    void aFailureWhoseCausesLoopBackIsPrintedOnce() {
        IllegalStateException a = new IllegalStateException("a");
        IllegalArgumentException b = new IllegalArgumentException("b");
        java.io.UncheckedIOException top = new java.io.UncheckedIOException("top", new IOException("io", a));
        a.initCause(b);
        b.initCause(a);
        java.io.StringWriter text = new java.io.StringWriter();
        picocli.CommandLine cl = SpindleCli.commandLine();
        cl.setErr(new java.io.PrintWriter(text));
        assertThat(SpindleCli.onFailure(top, cl, null)).isEqualTo(1);
        assertThat(text.toString()).contains("error: top")
                .containsOnlyOnce("caused by: java.io.IOException: io")
                .containsOnlyOnce("caused by: java.lang.IllegalStateException: a")
                .containsOnlyOnce("caused by: java.lang.IllegalArgumentException: b");
    }

    /** A very deep chain of causes is cut after {@link SpindleCli#MAX_CAUSES} of them. */
    @Test
    void aVeryDeepChainOfCausesIsCut() {
        Throwable cause = new IllegalStateException("deepest");
        for (int i = 0; i < 1000; i++) {
            cause = new IllegalStateException("level " + i, cause);
        }
        java.io.StringWriter text = new java.io.StringWriter();
        picocli.CommandLine cl = SpindleCli.commandLine();
        cl.setErr(new java.io.PrintWriter(text));
        SpindleCli.onFailure(new IllegalStateException("top", cause), cl, null);
        assertThat(text.toString().split("caused by:", -1)).hasSize(SpindleCli.MAX_CAUSES + 1);
        assertThat(text.toString()).contains("(more causes left out)");
    }
}
