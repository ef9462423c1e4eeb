/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An argument file ({@code @FILE}) that exists but cannot be read, a directory say, is a usage
 * error: one line naming the file and why, status 2. picocli's
 * {@code InitializationException} escaped {@code execute}, and {@code main} with it: a stack
 * trace and status 1. (A file that does not exist is no argument file to picocli: it is taken
 * as an argument, refused as unmatched.)
 */
class UnreadableArgumentFileTest {

    @Test
    void aDirectoryGivenAsAnArgumentFileIsAUsageError(@TempDir Path dir) {
        CliOutcome r = CliOutcome.run("bench", "@" + dir);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElse(""))
                .startsWith("spindle: cannot read the argument file " + dir + " (");
        assertThat(r.err()).doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void oneNamedInAnArgumentFileToo(@TempDir Path dir) throws IOException {
        Path unreadable = Files.createDirectory(dir.resolve("d"));
        Path args = Files.writeString(dir.resolve("args"), "--workloads\n@" + unreadable + "\n");
        CliOutcome r = CliOutcome.run("bench", "@" + args);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElse(""))
                .startsWith("spindle: cannot read the argument file " + unreadable + " (");
        assertThat(r.err()).doesNotContain("\tat ");
    }

    @Test
    void theRootCommandsToo(@TempDir Path dir) {
        CliOutcome r = CliOutcome.run("@" + dir);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElse("")).startsWith("spindle: cannot read the argument file " + dir);
    }
}
