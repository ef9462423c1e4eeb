/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./spindle certs DIR} where DIR cannot be made says why. A file-system exception's
 * message is often its path alone: for a DIR that is a regular file the command printed
 * {@code spindle certs: /path/DIR} and nothing else (exit 1), and the same for a directory it
 * may not write (as any user but root finds), which reads like a progress line, not an error.
 * A DIR that is a file is now a usage error (exit 2), found before anything is written.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DevCertificatesUnwritableDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void aDirectoryThatIsARegularFileIsRefusedSayingSo() throws Exception {
        Path file = Files.writeString(dir.resolve("stores"), "not a directory\n");
        TestCerts.ScriptRun run = TestCerts.runCertsScript(file.toString(), "worker");
        String out = run.output();

        assertThat(run.status()).as(out).isEqualTo(2);
        assertThat(out).contains("spindle certs: " + file + " exists and is not a directory")
                .contains("usage: spindle certs DIR");
        assertThat(Files.readString(file)).as("the file left as it was").isEqualTo("not a directory\n");
    }

    /** What root never sees: a directory it may not write. */
    @Test
    void aDirectoryItMayNotWriteIsDescribedSo() {
        assertThat(DevCertificates.describe(new AccessDeniedException("/srv/certs")))
                .isEqualTo("/srv/certs: permission denied");
        assertThat(DevCertificates.describe(new java.nio.file.NoSuchFileException("/srv/certs/x")))
                .isEqualTo("/srv/certs/x: no such file or directory");
        assertThat(DevCertificates.describe(new java.nio.file.FileAlreadyExistsException("/a/ca.p12")))
                .isEqualTo("/a/ca.p12: exists already");
        assertThat(DevCertificates.describe(new java.nio.file.FileSystemException("/a", null, "Not a directory")))
                .as("a message with its reason, as it was").isEqualTo("/a: Not a directory");
        assertThat(DevCertificates.describe(new java.io.IOException("keytool failed")))
                .isEqualTo("keytool failed");
    }
}
