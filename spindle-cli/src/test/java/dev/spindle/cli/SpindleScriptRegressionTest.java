/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ./spindle test} as a user runs it, with every tool it calls replaced by a recorder on
 * {@code PATH} (Maven, spin, gcc, Chromium) and a stand-in later JDK: what Maven is asked to
 * do in each of its two passes.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpindleScriptRegressionTest {

    @TempDir
    Path dir;

    private Path bin;
    private Path calls;
    private Path laterJdk;
    private Path checkCalls;

    @BeforeEach
    void fakeTools() throws IOException {
        bin = Files.createDirectories(dir.resolve("bin"));
        calls = dir.resolve("mvn-calls.txt");
        checkCalls = dir.resolve("check-calls.txt");
        // One line per Maven call: its arguments, each in brackets.
        executable(bin.resolve("mvn"), "#!/bin/sh\n{ for a in \"$@\"; do printf '[%s]' \"$a\"; done; echo; } >> '"
                + calls + "'\n");
        for (String tool : List.of("spin", "gcc", "chromium", "chromedriver")) {
            executable(bin.resolve(tool), "#!/bin/sh\nexit 0\n");
        }
        laterJdk = Files.createDirectories(dir.resolve("jdk-later/bin"));
        executable(laterJdk.resolve("java"), "#!/bin/sh\necho 'openjdk version \"25\"' >&2\n");
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * Runs {@code ./spindle test} from a copy of the script in a stand-in checkout whose model
     * checks ({@code spindle-stress/model/check.sh}) record their arguments and exit with
     * {@code checkStatus} after printing a report line; returns the script's exit status and
     * output.
     */
    private Run runScript(int checkStatus, String... mavenArgs) throws Exception {
        Path script = Paths.get("..", "spindle").toAbsolutePath().normalize();
        assertThat(script).as("the ./spindle script beside the modules").isRegularFile();
        Path root = Files.createDirectories(dir.resolve("checkout"));
        Path copy = Files.copy(script, root.resolve("spindle"), StandardCopyOption.REPLACE_EXISTING);
        executable(Files.createDirectories(root.resolve("spindle-stress/model")).resolve("check.sh"),
                "#!/bin/sh\n{ for a in \"$@\"; do printf '[%s]' \"$a\"; done; echo; } >> '" + checkCalls
                        + "'\necho 'model check report'\nexit " + checkStatus + "\n");
        List<String> command = new ArrayList<>(List.of("bash", copy.toString(), "test"));
        command.addAll(List.of(mavenArgs));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("SPINDLE_LATER_JDK", laterJdk.getParent().toString());
        pb.environment().put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("script ended").isTrue();
        return new Run(p.exitValue(), output);
    }

    private record Run(int status, String output) {}

    private List<String> runTest(String... mavenArgs) throws Exception {
        Run run = runScript(0, mavenArgs);
        assertThat(run.status()).as("exit status; output:%n%s", run.output()).isZero();
        return Files.readAllLines(calls, StandardCharsets.UTF_8);
    }

    private List<String> checkCalls() throws IOException {
        return Files.exists(checkCalls) ? Files.readAllLines(checkCalls, StandardCharsets.UTF_8) : List.of();
    }

    @Test
    void theLaterJdkPassGetsTheUsersMavenArguments() throws Exception {
        List<String> lines = runTest("-Dspin.skip", "-Dfoo=bar", "-q");

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("[-B][-ntp][verify][-T][2][-Dspin.skip][-Dfoo=bar][-q]");
        assertThat(lines.get(1))
                .startsWith("[-B][-ntp][-o][test][-T][2][-pl][!spindle-stress][-Dtest=!*Lincheck*,!MultiJvm*]")
                .endsWith("[-Dspin.skip][-Dfoo=bar][-q]");
    }

    /** Both passes run two modules at a time unless the user chose a thread count. */
    @Test
    void theUsersThreadCountReplacesBothPassesDefault() throws Exception {
        for (List<String> given : List.of(List.of("-T", "4"), List.of("-T1C"), List.of("--threads", "3"))) {
            List<String> lines = runTest(given.toArray(new String[0]));  // every run's calls, in order

            assertThat(lines.get(lines.size() - 2)).as("first pass for %s", given)
                    .isEqualTo("[-B][-ntp][verify][-Dspin.skip][" + String.join("][", given) + "]");
            assertThat(lines.get(lines.size() - 1)).as("second pass for %s", given)
                    .doesNotContain("[-T][2]")
                    .endsWith("[" + String.join("][", given) + "]");
        }
    }

    /** Two -pl lists would be joined by Maven, and excluding a module not selected fails the build. */
    @Test
    void theUsersModulesAndTestsReplaceTheSecondPassDefaults() throws Exception {
        List<String> lines = runTest("-pl", "spindle-core", "-Dtest=FooTest");

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1))
                .isEqualTo("[-B][-ntp][-o][test][-T][2][-Dsurefire.failIfNoSpecifiedTests=false][-pl][spindle-core][-Dtest=FooTest]")
                .doesNotContain("!spindle-stress")
                .doesNotContain("Lincheck");
    }

    @Test
    void skippingTestsSkipsTheSecondPass() throws Exception {
        List<String> lines = runTest("-DskipTests");

        assertThat(lines).containsExactly("[-B][-ntp][verify][-T][2][-DskipTests]");
        assertThat(checkCalls()).as("no model checks").isEmpty();
    }

    /*
     * The model checks need nothing built, so ./spindle test runs them beside the whole build,
     * outside Maven (which is told to leave them out), and reports them after it: in the
     * reactor they only began once spindle-core and spindle-async had been tested, the build's
     * longest step.
     */

    @Test
    void theModelChecksRunBesideTheBuildAndMavenLeavesThemOut() throws Exception {
        Run run = runScript(0, "-q");

        assertThat(run.status()).as("exit status; output:%n%s", run.output()).isZero();
        assertThat(checkCalls()).as("check.sh runs once, in a fresh work directory").singleElement()
                .asString().startsWith("[" + dir.resolve("tmp").resolve("spindle-spin."));
        List<String> lines = Files.readAllLines(calls, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("[-B][-ntp][verify][-T][2][-Dspin.skip][-q]");
        assertThat(run.output()).contains("model check report");
        try (var left = Files.list(dir.resolve("tmp"))) {
            assertThat(left).as("the work directory of passing checks is removed").isEmpty();
        }
    }

    @Test
    void aFailedModelCheckFailsTheTestCommandAndKeepsItsWork() throws Exception {
        Run run = runScript(1, "-q");

        assertThat(run.status()).as("exit status; output:%n%s", run.output()).isEqualTo(1);
        assertThat(run.output()).contains("model check report").contains("model checks FAILED");
        List<String> lines = Files.readAllLines(calls, StandardCharsets.UTF_8);
        assertThat(lines).as("both passes ran: the checks' verdict comes last").hasSize(2);
        assertThat(run.output().indexOf("model checks FAILED"))
                .as("reported after the later JDK's pass").isGreaterThan(run.output().indexOf("the tests again"));
        try (var left = Files.list(dir.resolve("tmp"))) {
            assertThat(left).as("the work directory is kept for a replay").hasSize(1);
        }
    }

    @Test
    void choosingModulesLeavesTheModelChecksToMaven() throws Exception {
        List<String> lines = runTest("-pl", "spindle-stress");

        assertThat(checkCalls()).isEmpty();
        assertThat(lines.get(0)).isEqualTo("[-B][-ntp][verify][-T][2][-pl][spindle-stress]");
    }
    /*
     * ./spindle bench as a user runs it, from a copy of the script in a stand-in checkout whose
     * java records its arguments: the bench heap (-Xms2g -Xmx2g) is added only when no heap size
     * is given. A heap size given through the JDK's own option variables was overridden by it
     * (JDK_JAVA_OPTIONS, JAVA_TOOL_OPTIONS) or clashed with it (_JAVA_OPTIONS: the JVM refused to
     * start). Found by review (session 41); the first three cases failed before the fix.
     */

    private String benchJavaArguments(String variable, String value) throws Exception {
        return benchJavaArguments(variable, value, "bench", "--workloads", "fib");
    }

    private String benchJavaArguments(String variable, String value, String... args) throws Exception {
        Path script = Paths.get("..", "spindle").toAbsolutePath().normalize();
        Path root = Files.createDirectories(dir.resolve("checkout"));
        Path copy = Files.copy(script, root.resolve("spindle"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(Files.createDirectories(root.resolve("spindle-cli/target")).resolve("spindle.jar"), "");
        Path javaCalls = dir.resolve("java-args.txt");
        executable(bin.resolve("java"), "#!/bin/sh\n{ for a in \"$@\"; do printf '[%s]' \"$a\"; done; echo; } > '"
                + javaCalls + "'\n");
        List<String> command = new ArrayList<>(List.of("bash", copy.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("SPINDLE_JAVA_OPTS");
        pb.environment().put(variable, value);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("script ended").isTrue();
        assertThat(p.exitValue()).as("exit status; output:%n%s", output).isZero();
        return Files.readString(javaCalls, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"})
    void aHeapSizeGivenThroughTheJdksOptionVariablesIsKept(String variable) throws Exception {
        assertThat(benchJavaArguments(variable, "-Dx=1 -Xmx1g")).contains("[-jar]")
                .doesNotContain("[-Xmx2g]").doesNotContain("[-Xms2g]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"})
    void withoutAHeapSizeTheBenchHeapIsStillFixed(String variable) throws Exception {
        assertThat(benchJavaArguments(variable, "-Dx=1")).contains("[-Xms2g][-Xmx2g][-XX:+AlwaysPreTouch]");
    }

    /**
     * A bench command that only prints its help or version starts without the bench heap: 2 GB
     * touched up front made {@code ./spindle bench --help} take a second, and fail to start on a
     * machine with less than 2 GB free. Failed before: every case had {@code -Xms2g}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"bench --help", "bench -h", "bench async --help", "bench --version", "bench echo -V"})
    void aBenchThatOnlyPrintsItsHelpStartsWithoutTheBenchHeap(String command) throws Exception {
        assertThat(benchJavaArguments("SPINDLE_UNUSED", "", command.split(" "))).contains("[-jar]")
                .doesNotContain("[-Xms2g]").doesNotContain("[-XX:+AlwaysPreTouch]");
    }
}
