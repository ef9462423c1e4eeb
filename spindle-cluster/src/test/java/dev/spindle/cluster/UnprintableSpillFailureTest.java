/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Unprintable;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value whose own serialisation fails with an exception whose {@code toString()} throws (user
 * code) cannot spill, and stays in memory, as any value that cannot spill does. The store logged
 * that failure by printing it: the printing's exception escaped the put that spilled, and on a
 * worker that put stores a task's result, so the task never reported and its future never
 * completed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnprintableSpillFailureTest {

    private static final int KB = 1_000;

    /** Sized (nothing serialises it before the store), and its writing throws an {@link Unprintable}. */
    static final class UnprintablyUnwritable implements Sized, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public long sizeInBytes() {
            return KB;
        }

        private void writeObject(ObjectOutputStream out) {
            throw new Unprintable();
        }
    }

    /** Written, but reading it back throws an {@link Unprintable}. */
    static final class UnprintablyUnreadable implements Sized, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public long sizeInBytes() {
            return KB;
        }

        private void readObject(ObjectInputStream in) {
            throw new Unprintable();
        }
    }

    @Test
    void aTaskWhoseResultCannotSpillForAnUnprintableReasonStillEnds(@TempDir Path parent) throws Exception {
        // the result is over the 60 % target by itself: it is spilled as it is stored
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).memoryLimitPerWorker(KB).build()) {
            ClusterFuture<Object> f = cluster.client().submit("unwritable", args -> new UnprintablyUnwritable());
            assertThat(f.get(10, TimeUnit.SECONDS)).isInstanceOf(UnprintablyUnwritable.class);
        }
    }

    @Test
    void valuesThatCannotSpillForAnUnprintableReasonStayInMemoryAndThePutGoesOn(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(KB, parent));
        try {
            store.put("unwritable", new UnprintablyUnwritable(), KB);
            store.put("unreadable", new UnprintablyUnreadable(), KB);
            assertThat(store.get("unwritable")).isInstanceOf(UnprintablyUnwritable.class);
            assertThat(store.get("unreadable")).isInstanceOf(UnprintablyUnreadable.class);
            assertThat(store.spilledBytes()).as("bytes spilled").isZero();
        } finally {
            store.clear();
        }
    }
}
