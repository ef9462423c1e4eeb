/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value of an application class is read back as soon as it is first spilled, and kept in memory
 * for good if that read fails, since a class Java serialisation writes but cannot read would be
 * lost at its next read. A transient I/O error of the disk under that read was taken for such a
 * class: the value was pinned and never spilled again, and a store full of such values counted as
 * stuck (its worker reported a stall, and the tasks it could not start failed). The disk's failure
 * now counts as the disk refusing that spill, which a later one tries again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpillReadBackDiskErrorTest {

    /** An application class, read back at its first spill. */
    record Block(int n, long sizeInBytes) implements Serializable, Sized {
    }

    @Test
    void aDiskErrorReadingBackAFreshSpillDoesNotPinTheValue(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(1_000, parent));
        AtomicInteger opens = new AtomicInteger();
        store.openWith(file -> {
            InputStream in = Files.newInputStream(file);
            if (opens.incrementAndGet() > 1) {
                return in;
            }
            return new java.io.FilterInputStream(in) {       // the first read back: the disk fails under it
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    throw new IOException("Input/output error");
                }

                @Override
                public int read() throws IOException {
                    throw new IOException("Input/output error");
                }
            };
        });
        try {
            Block block = new Block(7, 900);
            store.put("a", block, 900);       // over the target by itself: spilled at once, and read back
            assertThat(opens).as("the read back the disk failed").hasValue(1);
            assertThat(store.contains("a")).isTrue();

            assertThat(store.stuck()).as("over the pause fraction, but the value can spill: the disk is tried again")
                    .isFalse();
            assertThat(store.spilledBytes()).isEqualTo(900);
            assertThat(store.memoryBytes()).isZero();
            assertThat(store.get("a")).isEqualTo(block);
        } finally {
            store.clear();
        }
    }

    @Test
    void aValueWhoseOwnReadFailsIsStillPinned(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(1_000, parent));
        try {
            UnreadableSpilledValueTest.Block block = new UnreadableSpilledValueTest.Block(7, 900);
            store.put("a", block, 900);
            assertThat(store.spilledBytes()).isZero();
            assertThat(store.stuck()).as("only a value that cannot spill is in memory").isTrue();
            assertThat(store.get("a")).isSameAs(block);
        } finally {
            store.clear();
        }
    }
}
