/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value over the target by itself goes to disk as soon as it is stored, as in Dask (whose
 * buffer writes a value heavier than its target straight to slow storage): the values already in
 * memory, under the target without it, stay there rather than being written out first for nothing.
 */
class OverTargetValueSpillTest {

    private static final int MB = 1_000_000;

    @Test
    void aValueOverTheTargetBySelfSpillsAloneLeavingTheOthersInMemory(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(10L * MB, parent));   // target 6 MB
        try {
            store.put("small", new MemoryReleaseTest.Chunk(new byte[3 * MB]), 3L * MB);
            store.put("big", new MemoryReleaseTest.Chunk(new byte[7 * MB]), 7L * MB);
            assertThat(store.spills()).as("only the big value is written").isEqualTo(1);
            assertThat(store.spilledBytes()).isEqualTo(7L * MB);
            assertThat(store.memoryBytes()).as("the small one stays in memory").isEqualTo(3L * MB);
            assertThat(((MemoryReleaseTest.Chunk) store.get("small")).data()).hasSize(3 * MB);
            assertThat(store.spills()).as("and is not read back from disk").isEqualTo(1);
        } finally {
            store.clear();
        }
    }
}
