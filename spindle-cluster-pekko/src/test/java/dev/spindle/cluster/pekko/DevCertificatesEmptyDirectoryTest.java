/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./spindle certs ""} (a DIR from an unset variable, {@code certs "$DIR" worker}) is a
 * usage error that writes nothing. The empty path is the current directory to {@code Path.of}:
 * the command wrote a generated store password there, then failed with keytool's "Cannot run
 * program ... (in directory "")", status 1.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DevCertificatesEmptyDirectoryTest {

    @Test
    void anEmptyDirectoryIsNoDirectory(@TempDir Path cwd) throws Exception {
        TestCerts.ScriptRun run = TestCerts.runCertsScriptIn(cwd, "", "worker");
        assertThat(run.status()).as(run.output()).isEqualTo(2);
        assertThat(run.output()).contains("spindle certs: no directory given").contains("usage: spindle certs DIR");
        try (Stream<Path> written = Files.list(cwd)) {
            assertThat(written).as("nothing written in the current directory").isEmpty();
        }
    }
}
