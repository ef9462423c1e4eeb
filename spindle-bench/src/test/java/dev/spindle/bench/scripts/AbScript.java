/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Test fixture: runs {@code scripts/ab.sh} (from the module's directory, the tests' working
 * directory) with a fake {@code java}, so its bookkeeping can be checked without a benchmark.
 */
public final class AbScript {

    private AbScript() {
    }

    /** What a script run printed (stdout and stderr together) and its exit status. */
    public record Run(int status, String output) {
    }

    /**
     * Runs ab.sh in {@code dir} with {@code args} and a {@code java} that prints, as
     * {@code bench --json} would, a report whose fib ratio is 1 for {@code A.jar} and 2 for
     * {@code B.jar} (both made empty in {@code dir} if missing); {@code env} is added to a
     * copy of this process's environment without {@code JVM_OPTS}.
     */
    public static Run ab(Path dir, Map<String, String> env, String... args) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("java"), "#!/usr/bin/env bash\n"
                + "while [[ $# -gt 0 && \"$1\" != -jar ]]; do shift; done\n"   // the JVM options
                + "case \"$2\" in *A.jar) r=1.0 ;; *) r=2.0 ;; esac\n"
                + "echo '{\"results\": [{\"workload\": \"fib\", \"ratio\": '$r'}]}'\n");
        for (String jar : List.of("A.jar", "B.jar")) {
            if (!Files.exists(dir.resolve(jar))) {
                Files.writeString(dir.resolve(jar), "");
            }
        }
        List<String> command = new ArrayList<>(List.of("bash", Path.of("scripts", "ab.sh").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA", bin.resolve("java").toString());
        pb.environment().remove("JVM_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
        return new Run(p.exitValue(), output);
    }

    /** A {@code bench --json} report whose one row, fib, has {@code ratio}. */
    public static String report(double ratio) {
        return "{\"results\": [{\"workload\": \"fib\", \"ratio\": " + ratio + "}]}\n";
    }

    /** Writes an executable script. */
    public static void script(Path path, String text) throws IOException {
        Files.writeString(path, text);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
