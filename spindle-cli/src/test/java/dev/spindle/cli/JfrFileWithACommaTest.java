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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SPINDLE_JFR=FILE ./spindle ...} records to FILE whatever its name holds. The script
 * passes it in {@code -XX:StartFlightRecording:settings=...,filename=FILE}, whose options the JVM
 * splits at commas: {@code SPINDLE_JFR=runs/a,b.jfr} recorded to {@code runs/a}, with no more than
 * a warning about an unknown setting {@code b.jfr}, and a checkout whose path held a comma lost
 * its settings file the same way. Here the script runs from a stand-in checkout (with a comma in
 * its path) whose {@code java} records its arguments; the JVM option it was given is then handed
 * to the real JVM, which must write the recording to the file named, and nowhere else.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JfrFileWithACommaTest {

    @TempDir
    Path dir;

    /**
     * Two names, in one JVM (a recording each): a comma and an apostrophe, quoted with double
     * quotes; a comma and a double quote, quoted with single quotes.
     */
    @Test
    void aRecordingWhoseNameHoldsACommaOrAQuoteIsWrittenToThatFile() throws Exception {
        Path out = Files.createDirectories(dir.resolve("runs"));
        List<String> names = List.of("fib,steal's.jfr", "fib,\"steals\".jfr");
        List<String> command = new ArrayList<>(List.of(javaCommand()));
        for (String name : names) {
            command.add(jfrOptionOfTheScript(out.resolve(name).toString()));
        }
        command.add("-version");

        Process jvm = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(jvm.waitFor(90, TimeUnit.SECONDS)).as("the JVM ended").isTrue();

        assertThat(jvm.exitValue()).as("the JVM's status; it said:%n%s", said).isZero();
        assertThat(said).as("what the JVM said").doesNotContain("doesn't exist").doesNotContain("rror");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("the recordings, under their own names only").containsExactlyInAnyOrderElementsOf(names);
        }
        for (String name : names) {
            assertThat(Files.size(out.resolve(name))).as("the size of %s", name).isPositive();
        }
    }

    /** A name the JVM cannot take (both quotes) is refused by the script, saying why, before any JVM starts. */
    @Test
    void aNameHoldingBothQuotesIsRefusedWithAClearMessage() throws Exception {
        Run run = runScript(dir.resolve("runs").resolve("it's \"fib\".jfr").toString());

        assertThat(run.status()).as("exit status; output:%n%s", run.output()).isEqualTo(2);
        assertThat(run.output()).contains("SPINDLE_JFR holds both a double and a single quote");
        assertThat(dir.resolve("java-args.txt")).as("no JVM started").doesNotExist();
    }

    /**
     * The {@code -XX:StartFlightRecording} option that {@code ./spindle demo} gives {@code java}
     * for {@code SPINDLE_JFR=file}, run from a checkout whose path holds a comma.
     */
    private String jfrOptionOfTheScript(String file) throws Exception {
        Run run = runScript(file);
        assertThat(run.status()).as("exit status; output:%n%s", run.output()).isZero();
        List<String> options = new ArrayList<>();
        for (String a : Files.readAllLines(dir.resolve("java-args.txt"), StandardCharsets.UTF_8)) {
            if (a.startsWith("-XX:StartFlightRecording")) {
                options.add(a);
            }
        }
        assertThat(options).as("the script's flight recording options").hasSize(1);
        return options.get(0);
    }

    private record Run(int status, String output) {}

    /** Runs {@code ./spindle demo} with {@code SPINDLE_JFR=file} from a checkout whose path holds a comma. */
    private Run runScript(String file) throws Exception {
        Files.deleteIfExists(dir.resolve("java-args.txt"));
        Path root = Files.createDirectories(dir.resolve("check,out"));
        Path script = Files.copy(Paths.get("..", "spindle").toAbsolutePath().normalize(), root.resolve("spindle"),
                StandardCopyOption.REPLACE_EXISTING);
        Path settings = Paths.get("..", "spindle-core/src/main/resources/dev/spindle/spindle.jfc").toAbsolutePath()
                .normalize();
        Path jfc = root.resolve("spindle-core/src/main/resources/dev/spindle/spindle.jfc");
        Files.createDirectories(jfc.getParent());
        Files.copy(settings, jfc, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(Files.createDirectories(root.resolve("spindle-cli/target")).resolve("spindle.jar"), "");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path calls = dir.resolve("java-args.txt");
        // one argument a line
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + calls + "'\n",
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "demo").redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("SPINDLE_JFR", file);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("script ended").isTrue();
        return new Run(p.exitValue(), output);
    }

    private static String javaCommand() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }
}
