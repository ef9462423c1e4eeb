/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A temporary-file cleaner (systemd-tmpfiles, tmpwatch) that removes a long-running worker's spill
 * directory, its files and then the emptied directory: the store made that directory once, on its
 * first spill, and wrote every later spill into it, so each one failed on the missing directory,
 * for good; the store kept every value in memory, paused over the limit, and its worker reported
 * itself stalled until it stopped, although the disk had room. A spill now makes the directory
 * again when it is gone.
 */
class SpillDirectoryDeletedUnderTheWorkerTest {

    private static final int MB = 1_000_000;

    private static MemoryReleaseTest.Chunk filled(int fill) {
        byte[] b = new byte[MB];
        Arrays.fill(b, (byte) fill);
        return new MemoryReleaseTest.Chunk(b);
    }

    private static void deleteTree(Path parent) throws Exception {
        try (Stream<Path> all = Files.walk(parent)) {
            for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                if (!p.equals(parent)) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void spillsGoOnOnceACleanerRemovedTheSpillDirectory(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            store.put("a", filled(1), MB);
            store.put("b", filled(2), MB);
            assertThat(store.spilledBytes()).as("a spilled").isEqualTo(MB);
            store.remove("a");                // its file goes: the directory is empty
            deleteTree(parent);               // the cleaner removes the old, empty directory

            for (int i = 0; i < 3; i++) {
                store.put("c-" + i, filled(10 + i), MB);
            }
            assertThat(store.memoryBytes()).as("spilled down to the target again").isLessThanOrEqualTo(MB);
            assertThat(store.spilledBytes()).isEqualTo(3L * MB);
            assertThat(store.paused()).isFalse();
            assertThat(store.stuck()).isFalse();
            assertThat(((MemoryReleaseTest.Chunk) store.get("b")).data()).containsOnly((byte) 2);
            assertThat(((MemoryReleaseTest.Chunk) store.get("c-0")).data()).containsOnly((byte) 10);
        } finally {
            store.clear();
        }
        try (Stream<Path> left = Files.list(parent)) {
            assertThat(left.toList()).as("clear deletes the directory it made again").isEmpty();
        }
    }
}
