/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's {@code --spill-dir} is the parent of its owner-only spill directory, and was taken
 * whoever could write in it. Another user who may write there (a directory open to all, not
 * sticky) can move the worker's directory aside and put one of theirs under its name: the store
 * looks at the directory's identity before each spill, but a spill racing the swap writes a value
 * into their directory, and they read it (the values are the tasks' results). Refused now, as the
 * secret files are; a sticky directory ({@code /tmp}), where only a file's owner may rename it,
 * is accepted.
 */
class SpillDirectoryAnyoneMayWriteInTest {

    private static WorkerMemory memory(Path spill) {
        return WorkerCommandLine.parse(new String[] {"--memory-limit", "64m", "--spill-dir", spill.toString()},
                WorkerCommandLine.withMemoryOptions()).memory();
    }

    @Test
    void aSpillParentAnyoneMayWriteInIsRefusedUnlessSticky(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        Path open = Files.createDirectory(dir.resolve("open"));
        mode(open, 0777);

        assertThatThrownBy(() -> memory(open)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spill-dir " + open + ": anyone may write in " + open + " (not sticky), and move the"
                        + " worker's spill directory aside for one of their own: choose another, or make it sticky"
                        + " (chmod +t)");

        mode(open, 01777);
        assertThat(memory(open).spillParent()).isEqualTo(open);
        mode(open, 0755);
        assertThat(memory(open).spillParent()).isEqualTo(open);
    }

    /**
     * The same parent given through the API ({@code WorkerMemory}, which {@code PekkoWorker.start},
     * {@code HazelcastWorker.start} and {@code WorkerNode} take) was taken, whoever could write in
     * it: refused now by the launcher's rule, and a directory below it too.
     */
    @Test
    void aSpillParentAnyoneMayWriteInIsRefusedThroughTheApiToo(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        Path open = Files.createDirectory(dir.resolve("open"));
        Path below = Files.createDirectory(open.resolve("mine"));
        mode(open, 0777);

        assertThatThrownBy(() -> new WorkerMemory(64L << 20, open)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spill directory parent " + open + ": anyone may write in " + open + " (not sticky), and"
                        + " move the worker's spill directory aside for one of their own: choose another, or make it"
                        + " sticky (chmod +t)");
        assertThatThrownBy(() -> new WorkerMemory(64L << 20, below)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("spill directory parent " + below + ": anyone may write in " + open + " ");

        mode(open, 01777);
        assertThat(new WorkerMemory(64L << 20, open).spillParent()).isEqualTo(open);
        assertThat(new WorkerMemory(64L << 20, below).spillParent()).isEqualTo(below);
        mode(open, 0755);
        assertThat(new WorkerMemory(64L << 20, open).spillParent()).isEqualTo(open);
        assertThat(new WorkerMemory(0, null).spillParent()).isNull();
    }

    /** Sets {@code p}'s mode bits (also for DefaultSpillParentTest); skips the test where they cannot be set. */
    static void mode(Path p, int mode) throws IOException {
        try {
            Files.setAttribute(p, "unix:mode", mode);
        } catch (UnsupportedOperationException | IllegalArgumentException notSettable) {
            try {
                Process chmod = new ProcessBuilder("chmod", Integer.toOctalString(mode), p.toString()).start();
                assumeTrue(chmod.waitFor() == 0, "chmod");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
    }
}
