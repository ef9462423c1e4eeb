/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker given no spill parent spills under {@code java.io.tmpdir}. A spill parent given through
 * the API or {@code --spill-dir} that anyone may write in, not sticky, is refused (see
 * {@link SpillDirectoryAnyoneMayWriteInTest}); the default was taken whatever it was, and
 * {@code java.io.tmpdir} may be set to such a directory: whoever may write there could move the
 * spill directory aside for one of theirs, which a racing spill writes a task's value into. The
 * same rule now applies to it where the spill directory is made: the disk refuses the spill,
 * saying why and naming {@code java.io.tmpdir}, the values stay in memory, and a paused store
 * counts as stuck. Run in a JVM of its own, whose {@code java.io.tmpdir} is the test's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DefaultSpillParentTest {

    @Test
    void anOpenJavaIoTmpdirIsNotSpilledUnder(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        Path open = Files.createDirectory(dir.resolve("open"));
        SpillDirectoryAnyoneMayWriteInTest.mode(open, 0777);

        // before: spilled there, in a spindle-spill-* directory ("spills=4 stuck=false")
        String output = spillWithTmpdir(open);
        assertThat(output).contains("spills=0 stuck=true")
                .contains("java.io.tmpdir " + open + ": anyone may write in " + open + " (not sticky)");
        try (Stream<Path> left = Files.list(open)) {
            assertThat(left).as("made under the open java.io.tmpdir").isEmpty();
        }
    }

    @Test
    void aStickyJavaIoTmpdirIsSpilledUnder(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        Path sticky = Files.createDirectory(dir.resolve("sticky"));
        SpillDirectoryAnyoneMayWriteInTest.mode(sticky, 01777);

        assertThat(spillWithTmpdir(sticky)).contains("spills=").doesNotContain("spills=0 ").contains("stuck=false")
                .doesNotContain("java.io.tmpdir");
    }

    /** {@link DefaultSpillParentMain}'s output, errors and log included, run with {@code tmpdir}. */
    private static String spillWithTmpdir(Path tmpdir) throws Exception {
        String classPath = String.join(File.pathSeparator, List.of(
                System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", "")));
        Process process = new ProcessBuilder(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmpdir, "-cp", classPath,
                DefaultSpillParentMain.class.getName()).redirectErrorStream(true).start();
        try {
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            if (!exited) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);   // so that reading its output ends
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(exited).as("exited within 60 s; output:%n%s", output).isTrue();
            assertThat(process.exitValue()).as("exit status; output:%n%s", output).isZero();
            return output;
        } finally {
            process.destroyForcibly();
        }
    }
}
