/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spill parent given to a worker ({@code WorkerMemory}, {@code --spill-dir}) was checked when
 * the settings were made, and the spill directory made under it at the first spill, maybe hours
 * later, whatever the parent had become meanwhile: opened to anyone (not sticky), or, a link,
 * pointed at a directory open to anyone. Whoever may write there can move the worker's spill
 * directory aside for one of theirs, which a racing spill writes a task's value into. The parent
 * is now checked again where the spill directory is made, by the same rule, and the directory made
 * in the very directory checked (its real path): refused, the spill fails as on a disk that refuses
 * it, and the values stay in memory.
 */
class SpillParentCheckedWhereMadeTest {

    /** Puts 1,000 bytes into a store whose limit is 1,000 bytes: over the target, so it spills. */
    private static DataStore fill(WorkerMemory memory) {
        DataStore store = new DataStore(memory);
        for (int i = 0; i < 10; i++) {
            store.put("v" + i, new byte[100], 100);
        }
        return store;
    }

    private static long entries(Path dir) throws Exception {
        try (Stream<Path> in = Files.list(dir)) {
            return in.count();
        }
    }

    @Test
    void aParentOpenedToAnyoneAfterTheCheckIsNotSpilledUnder(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        Path parent = Files.createDirectory(dir.resolve("parent"));
        SpillDirectoryAnyoneMayWriteInTest.mode(parent, 0755);
        WorkerMemory memory = new WorkerMemory(1_000, parent);   // accepted: only its owner may write there

        SpillDirectoryAnyoneMayWriteInTest.mode(parent, 0777);
        DataStore store = fill(memory);
        try {
            // before: spilled there ("spills=4", a spindle-spill-* directory in parent)
            assertThat(store.spills()).isZero();
            assertThat(store.stuck()).isTrue();
            assertThat(entries(parent)).as("made under the opened parent").isZero();
        } finally {
            store.clear();
        }

        SpillDirectoryAnyoneMayWriteInTest.mode(parent, 01777);  // sticky: only an entry's owner may rename it
        DataStore sticky = fill(memory);
        try {
            assertThat(sticky.spills()).isPositive();
            assertThat(sticky.stuck()).isFalse();
        } finally {
            sticky.clear();
        }
    }

    @Test
    void aParentSwappedForALinkToAnOpenDirectoryIsNotSpilledUnder(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        SpillDirectoryAnyoneMayWriteInTest.mode(dir, 0700);
        Path parent = Files.createDirectory(dir.resolve("parent"));
        SpillDirectoryAnyoneMayWriteInTest.mode(parent, 0755);
        Path open = Files.createDirectory(dir.resolve("open"));
        SpillDirectoryAnyoneMayWriteInTest.mode(open, 0777);
        WorkerMemory memory = new WorkerMemory(1_000, parent);

        Files.delete(parent);
        Files.createSymbolicLink(parent, open);
        DataStore store = fill(memory);
        try {
            // before: spilled into the open directory through the link
            assertThat(store.spills()).isZero();
            assertThat(store.stuck()).isTrue();
            assertThat(entries(open)).as("made in the open directory the link names").isZero();
        } finally {
            store.clear();
        }
    }

    @Test
    void aSafeParentIsStillSpilledUnderAndAgainOnceItIsSafeAgain(@TempDir Path dir) throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX permissions");
        Path parent = Files.createDirectory(dir.resolve("parent"));
        SpillDirectoryAnyoneMayWriteInTest.mode(parent, 0777);
        WorkerMemory memory = new WorkerMemory(1_000, dir.resolve("later"));   // does not exist yet: let be
        Files.move(parent, dir.resolve("later"));
        Path later = dir.resolve("later");

        DataStore store = fill(memory);
        try {
            assertThat(store.spills()).isZero();
            SpillDirectoryAnyoneMayWriteInTest.mode(later, 0700);
            store.put("w", new byte[100], 100);                 // the next spill tries again, and succeeds
            assertThat(store.spills()).isPositive();
            assertThat(store.stuck()).isFalse();
            assertThat(entries(later)).isOne();
        } finally {
            store.clear();
        }
        assertThat(entries(later)).as("deleted when the store is cleared").isZero();
    }
}
