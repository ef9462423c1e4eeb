/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.testkit.UnreachableTransport;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spilled value whose file cannot be read back (deleted by a tmp cleaner, damaged on disk) is
 * lost: a fetch is answered "not held" at once, so that the scheduler drops this holder and
 * computes the value again, rather than the read's {@code UncheckedIOException} escaping into the
 * transport's fetch handler (the requester then waits out its fetch timeout); and the store stops
 * holding and counting it.
 */
class UnreadableSpillFileTest {

    private static final int MB = 1_000_000;
    private static final Object NOT_HELD = new Object();

    private static MemoryReleaseTest.Chunk filled(int fill) {
        byte[] b = new byte[MB];
        Arrays.fill(b, (byte) fill);
        return new MemoryReleaseTest.Chunk(b);
    }

    private static List<Path> spillFiles(Path parent) throws Exception {
        try (Stream<Path> dirs = Files.list(parent)) {
            return dirs.flatMap(d -> {
                try {
                    return Files.list(d).toList().stream();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    private static DataStore storeOf(WorkerNode node) throws Exception {
        Field f = WorkerNode.class.getDeclaredField("worker");
        f.setAccessible(true);
        return ((ClusterWorker) f.get(node)).store();
    }

    @Test
    void aFetchOfAValueWhoseSpillFileWasDeletedIsAnsweredNotHeld(@TempDir Path parent) throws Exception {
        try (WorkerNode node = new WorkerNode(0, 1, new WorkerMemory(2L * MB, parent), new UnreachableTransport())) {
            DataStore store = storeOf(node);
            for (int i = 0; i < 4; i++) {
                store.put("k-" + i, filled(i), MB);
            }
            assertThat(store.spilledBytes()).as("all but k-3 spilled").isEqualTo(3L * MB);
            for (Path f : spillFiles(parent)) {
                Files.delete(f);              // a tmp cleaner: the copies on disk are gone
            }
            assertThat(node.valueOrDefault("k-0", NOT_HELD)).as("a lost copy is not held").isSameAs(NOT_HELD);
            assertThat(node.valueOrDefault("k-0", NOT_HELD)).as("and stays so").isSameAs(NOT_HELD);
            assertThat(((MemoryReleaseTest.Chunk) node.value("k-3")).data()).containsOnly((byte) 3);
        }
    }

    @Test
    void aValueThatCannotBeReadBackIsDroppedAndNoLongerCounted(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            for (int i = 0; i < 4; i++) {
                store.put("k-" + i, filled(i), MB);
            }
            assertThat(store.spilledBytes()).isEqualTo(3L * MB);
            List<Path> files = spillFiles(parent).stream().sorted().toList();
            Files.delete(files.get(0));       // k-0's copy, spilled first
            assertThatThrownBy(() -> store.get("k-0")).isInstanceOf(RuntimeException.class);
            assertThat(store.contains("k-0")).as("the lost copy is no longer held").isFalse();
            assertThat(store.spilledBytes()).as("nor counted on disk").isEqualTo(2L * MB);
            assertThat(store.keys()).isEqualTo(3);
        } finally {
            store.clear();
        }
    }
}
