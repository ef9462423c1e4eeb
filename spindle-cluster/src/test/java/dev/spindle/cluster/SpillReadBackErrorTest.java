/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

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
 * A value whose own {@code readObject} (or {@code writeObject}) throws an {@link Error} other than
 * a {@link StackOverflowError} (an {@link AssertionError} of its own checks, a linkage error)
 * cannot spill and stays in memory, as one whose serialisation throws an exception does. The
 * error escaped the put that spilled it; on a worker that put stores a task's result, so the task
 * never reported and its future never completed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpillReadBackErrorTest {

    private static final int KB = 1_000;

    /** Measured by serialising it (which works), but reading it back throws an {@link AssertionError}. */
    static final class FailsItsOwnCheckOnRead implements Serializable {
        private static final long serialVersionUID = 1L;
        private final byte[] payload = new byte[2 * KB];

        private void readObject(ObjectInputStream in) {
            throw new AssertionError("an invariant of the value's own");
        }
    }

    /** Sized (nothing serialises it before the store), and writing it throws an {@link AssertionError}. */
    static final class FailsItsOwnCheckOnWrite implements Sized, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public long sizeInBytes() {
            return 2 * KB;
        }

        private void writeObject(ObjectOutputStream out) {
            throw new AssertionError("an invariant of the value's own");
        }
    }

    @Test
    void aTaskWhoseResultCannotBeReadBackForAnErrorStillEnds(@TempDir Path parent) throws Exception {
        // the result is over the 60 % target by itself: it is spilled, and read back, as it is stored
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).memoryLimitPerWorker(2 * KB).build()) {
            ClusterFuture<Object> f = cluster.client().submit("unreadable", args -> new FailsItsOwnCheckOnRead());
            assertThat(f.get(10, TimeUnit.SECONDS)).isInstanceOf(FailsItsOwnCheckOnRead.class);
        }
    }

    @Test
    void valuesWhoseSerialisationThrowsAnErrorStayInMemoryAndThePutGoesOn(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(2 * KB, parent));
        try {
            store.put("unwritable", new FailsItsOwnCheckOnWrite(), 2 * KB);
            store.put("unreadable", new FailsItsOwnCheckOnRead(), 2 * KB);
            assertThat(store.get("unwritable")).isInstanceOf(FailsItsOwnCheckOnWrite.class);
            assertThat(store.get("unreadable")).isInstanceOf(FailsItsOwnCheckOnRead.class);
            assertThat(store.spilledBytes()).as("bytes spilled").isZero();
        } finally {
            store.clear();
        }
    }
}
