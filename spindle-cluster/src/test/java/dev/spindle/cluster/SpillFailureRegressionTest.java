/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value whose own {@code writeObject} throws an {@link IOException} cannot spill; that is the
 * value's failure, not the disk's. It was taken for the disk refusing: spilling stopped at it
 * (no other value spilled), and the store counted as stuck, so its worker reported a stall on a
 * disk that works. A value whose writing overflows the stack is the value's failure too; the
 * {@link StackOverflowError} escaped the put that spilled it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpillFailureRegressionTest {

    private static final int MB = 1_000_000;

    /** Sized (so nothing serialises it before the store) and serialisable, but its writing always fails. */
    static final class RefusesToBeWritten implements Sized, Serializable {
        private static final long serialVersionUID = 1L;
        private final long size;

        RefusesToBeWritten(long size) {
            this.size = size;
        }

        @Override
        public long sizeInBytes() {
            return size;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            throw new IOException("this value cannot be written");
        }
    }

    /** Sized, so nothing serialises it before the store; a long chain, whose writing overflows the stack. */
    static final class SizedChain implements Sized, Serializable {
        private static final long serialVersionUID = 1L;
        private final ResultMeasureRegressionTest.Link head = ResultMeasureRegressionTest.Link.chain(1_000_000);

        @Override
        public long sizeInBytes() {
            return MB;
        }
    }

    @Test
    void aValueWhoseWritingOverflowsTheStackStaysInMemoryAndThePutGoesOn(@TempDir Path parent) {
        // the value is over the target by itself: it spills at once
        DataStore store = new DataStore(new WorkerMemory(MB, parent));
        try {
            store.put("sf-deep", new SizedChain(), MB);
            assertThat(store.get("sf-deep")).as("the value that cannot spill, still in memory")
                    .isInstanceOf(SizedChain.class);
            assertThat(store.spilledBytes()).as("bytes spilled").isZero();
        } finally {
            store.clear();
        }
    }

    @Test
    void aValueWhoseWriteObjectThrowsIOExceptionNeitherStopsSpillingNorCountsAsTheDiskRefusing(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(10L * MB, parent));
        try {
            store.put("sf-bad", new RefusesToBeWritten(MB), MB);     // the least recently used
            for (int i = 0; i < 9; i++) {
                store.put("sf-" + i, new MemoryReleaseTest.Chunk(new byte[MB]), MB);
            }
            assertThat(store.spilledBytes()).as("bytes spilled: the other values spill past the bad one")
                    .isPositive();
            assertThat(store.memoryBytes()).as("in memory: the 60 %% target plus the value that cannot spill")
                    .isLessThanOrEqualTo(7L * MB);
            assertThat(store.stuck()).as("stuck (its disk takes spills)").isFalse();
            assertThat(store.get("sf-bad")).as("the value that cannot spill, still in memory")
                    .isInstanceOf(RefusesToBeWritten.class);
        } finally {
            store.clear();
        }
    }
}
