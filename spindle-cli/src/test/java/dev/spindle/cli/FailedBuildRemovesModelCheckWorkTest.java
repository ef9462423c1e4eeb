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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./spindle test} whose build fails while the model checks run beside it: the checks are
 * stopped, and their work directory (up to 40 MB of generated verifiers, of no use half made)
 * does not stay behind in {@code TMPDIR}, one more after each failed build. The tools the script
 * calls are stand-ins on {@code PATH}, as in {@link SpindleScriptRegressionTest}.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedBuildRemovesModelCheckWorkTest {

    @TempDir
    Path dir;

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void aFailedBuildStopsTheModelChecksAndRemovesTheirWork() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path started = dir.resolve("checks-started");
        Path finished = dir.resolve("checks-finished");
        // Maven fails once the checks are under way (they wrote into their work directory)
        executable(bin.resolve("mvn"), "#!/bin/sh\nwhile [ ! -e '" + started + "' ]; do sleep 0.05; done\nexit 3\n");
        for (String tool : List.of("spin", "gcc", "chromium", "chromedriver")) {
            executable(bin.resolve(tool), "#!/bin/sh\nexit 0\n");
        }
        Path script = Paths.get("..", "spindle").toAbsolutePath().normalize();
        assertThat(script).as("the ./spindle script beside the modules").isRegularFile();
        Path root = Files.createDirectories(dir.resolve("checkout"));
        Path copy = Files.copy(script, root.resolve("spindle"), StandardCopyOption.REPLACE_EXISTING);
        // checks that take long: half their work written, then a wait the script must cut short
        executable(Files.createDirectories(root.resolve("spindle-stress/model")).resolve("check.sh"),
                "#!/bin/sh\necho verifier > \"$1/pan.c\"\ntouch '" + started + "'\nsleep 20\ntouch '" + finished
                        + "'\n");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        ProcessBuilder pb = new ProcessBuilder("bash", copy.toString(), "test", "-q").redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("SPINDLE_LATER_JDK", "none");
        pb.environment().put("TMPDIR", tmp.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("script ended").isTrue();

        assertThat(p.exitValue()).as("the build's exit status; output:%n%s", output).isEqualTo(3);
        assertThat(started).as("the checks ran beside the build").exists();
        try (var left = Files.list(tmp)) {
            assertThat(left).as("the stopped checks' work directory is removed").isEmpty();
        }
        assertThat(finished).as("the checks were stopped with the build").doesNotExist();
    }
}
