/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker launcher's command line: one-line reasons for anything wrong, secrets never from arguments. */
class WorkerCommandLineTest {

    private static final Set<String> OPTIONS = Set.of("--id", "--cluster", "--port", "--members", "--secret-file");

    private static WorkerCommandLine parse(String... args) {
        return WorkerCommandLine.parse(args, OPTIONS);
    }

    @Test
    void readsOptionsWithDefaults() {
        WorkerCommandLine line = parse("--id", "3", "--cluster", "c", "--members", "a:1, b:2", "--id", "4");
        assertThat(line.help()).isFalse();
        assertThat(line.number("--id", -1, 0)).isEqualTo(4);          // the last one counts
        assertThat(line.number("--port", 5701, 1)).isEqualTo(5701);
        assertThat(line.text("--cluster", null)).isEqualTo("c");
        assertThat(line.list("--members")).containsExactly("a:1", "b:2");
        assertThat(line.list("--secret-file")).isEmpty();
        line.require("--id", "--cluster");
    }

    @Test
    void helpWins() {
        assertThat(parse("--id", "1", "--help").help()).isTrue();
        assertThat(parse("-h").help()).isTrue();
    }

    @Test
    void eachMistakeIsOneLine() {
        assertThatThrownBy(() -> parse("stray")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unexpected argument 'stray'");
        assertThatThrownBy(() -> parse("--id")).hasMessage("missing value after --id");
        assertThatThrownBy(() -> parse("--colour", "red")).hasMessage("unknown option --colour");
        assertThatThrownBy(() -> parse("--port", "abc").number("--port", 1, 1))
                .hasMessage("--port needs a whole number, got 'abc'");
        assertThatThrownBy(() -> parse("--port", "0").number("--port", 1, 1)).hasMessage("--port must be at least 1, got 0");
        assertThatThrownBy(() -> parse().require("--id")).hasMessage("--id is required");
        assertThatThrownBy(() -> parse("--id", "0").require("--id", "--cluster")).hasMessage("--id and --cluster are required");
        assertThatThrownBy(() -> parse().require("--id", "--cluster", "--members"))
                .hasMessage("--id, --cluster and --members are required");
    }

    @Test
    void theSecretComesFromAFileOrTheEnvironment(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("secret"), "from-file\n");
        Map<String, String> env = Map.of("SPINDLE_SECRET", "from-env");
        assertThat(parse("--secret-file", file.toString()).secret("--secret-file", env, "SPINDLE_SECRET", "secret"))
                .isEqualTo("from-file");
        assertThat(parse().secret("--secret-file", env, "SPINDLE_SECRET", "secret")).isEqualTo("from-env");
        assertThatThrownBy(() -> parse().secret("--secret-file", Map.of(), "SPINDLE_SECRET", "secret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no secret: set SPINDLE_SECRET or pass --secret-file");
        String missing = dir.resolve("missing").toString();
        assertThatThrownBy(() -> parse("--secret-file", missing).secret("--secret-file", env, "SPINDLE_SECRET", "secret"))
                .hasMessage("--secret-file " + missing + ": no such file");
        assertThatThrownBy(() -> parse("--secret-file", dir.toString()).secret("--secret-file", env, "SPINDLE_SECRET",
                "secret")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot read it");
    }

    @Test
    void aUsageErrorIsTheReasonThenTheUsage() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertThat(WorkerCommandLine.usageError(err, "unknown option --x", "usage: w")).isEqualTo(WorkerCommandLine.USAGE);
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly("WorkerMain: unknown option --x",
                "usage: w");
    }

    @Test
    void readsTheMemoryLimitAndSpillDirectory(@TempDir Path dir) {
        Set<String> options = WorkerCommandLine.withMemoryOptions("--id");
        assertThat(WorkerCommandLine.parse(new String[] {"--id", "1"}, options).memory()).isEqualTo(WorkerMemory.NONE);
        assertThat(WorkerCommandLine.parse(new String[] {"--memory-limit", "64m", "--spill-dir", dir.toString()}, options)
                .memory()).isEqualTo(new WorkerMemory(64L << 20, dir));
        assertThat(WorkerCommandLine.parse(new String[] {"--memory-limit", "2G"}, options).memory().limitBytes())
                .isEqualTo(2L << 30);
        assertThat(WorkerCommandLine.parse(new String[] {"--memory-limit", "1000"}, options).memory().limitBytes())
                .isEqualTo(1000);
        for (String bad : List.of("0", "-1m", "lots", "12t", "m", "99999999999g")) {
            assertThatThrownBy(() -> WorkerCommandLine.parse(new String[] {"--memory-limit", bad}, options).memory())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--memory-limit needs a size in bytes of at least 1, such as 512m or 2g, got '"
                            + bad + "'");
        }
        assertThatThrownBy(() -> WorkerCommandLine.parse(new String[] {"--spill-dir", dir.resolve("none").toString()},
                options).memory()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no such directory");
    }
}
