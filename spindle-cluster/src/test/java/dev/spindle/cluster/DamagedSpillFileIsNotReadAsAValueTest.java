/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spill file whose bytes changed on disk but not its length (a damaged sector, another process
 * of the user writing into it): only the length was checked, so a change inside the value's data
 * (an array's elements, a string's characters) read back as a valid value, a wrong one, handed to
 * the tasks that read it and to the workers that fetched it, with no error anywhere. The store
 * now checks each file against a checksum taken as it was written, and a changed file is a lost
 * copy, as an unreadable one is: dropped with a clear error, so that the value is computed again.
 */
class DamagedSpillFileIsNotReadAsAValueTest {

    private static final int MB = 1_000_000;

    private static MemoryReleaseTest.Chunk filled(int fill) {
        byte[] b = new byte[MB];
        Arrays.fill(b, (byte) fill);
        return new MemoryReleaseTest.Chunk(b);
    }

    private static List<Path> spillFiles(Path parent) throws Exception {
        try (Stream<Path> all = Files.walk(parent)) {
            return all.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void aSpillFileChangedInPlaceIsALostCopyNotAWrongValue(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            store.put("a", filled(1), MB);
            store.put("b", filled(2), MB);
            List<Path> files = spillFiles(parent);
            assertThat(files).as("a spilled").hasSize(1);
            Path file = files.get(0);
            long length = Files.size(file);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {7}), length - MB / 2);   // one byte of a's data
            }
            assertThat(Files.size(file)).as("the same length").isEqualTo(length);

            assertThatThrownBy(() -> store.get("a"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the spilled value of 'a' is lost");
            assertThat(store.contains("a")).as("the damaged copy is no longer held").isFalse();
            assertThat(store.spilledBytes()).as("nor counted").isZero();
            assertThat(spillFiles(parent)).as("its file is gone").isEmpty();
            assertThat(((MemoryReleaseTest.Chunk) store.get("b")).data()).containsOnly((byte) 2);
        } finally {
            store.clear();
        }
    }
}
