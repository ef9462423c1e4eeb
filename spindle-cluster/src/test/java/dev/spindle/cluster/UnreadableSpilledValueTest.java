/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value that Java serialisation writes but cannot read back (a common mistake: a serialisable
 * class whose first non-serialisable superclass has no no-argument constructor) passes the
 * measure, which only writes; spilled, it is lost at its next read, and an in-process worker,
 * which never needs to read a value back otherwise, lost it again each time it was computed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreadableSpilledValueTest {

    /** No no-argument constructor: a serialisable subclass is written, but not read back. */
    static class Base {
        final int n;

        Base(int n) {
            this.n = n;
        }
    }

    /** Sized, so that it is over the spill target by itself and spills as soon as it is stored. */
    static final class Block extends Base implements Serializable, Sized {
        private static final long serialVersionUID = 1L;
        private final long bytes;

        Block(int n, long bytes) {
            super(n);
            this.bytes = bytes;
        }

        @Override
        public long sizeInBytes() {
            return bytes;
        }
    }

    @Test
    void aValueThatCannotBeReadBackStaysInMemoryInsteadOfBeingLostWhenItSpills(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(1_000, parent));
        try {
            Block block = new Block(7, 700);
            store.put("a", block, 700);
            assertThat(store.get("a")).as("the value, after its spill").isSameAs(block);
            assertThat(store.contains("a")).isTrue();
            assertThat(store.memoryBytes()).isEqualTo(700);
            assertThat(store.spilledBytes()).isZero();
        } finally {
            store.clear();
        }
    }

    @Test
    void aDependentOfAValueThatCannotBeReadBackRunsInsteadOfRecomputingItForGood() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(1_000)
                .build()) {
            Client client = cluster.client();
            ClusterFuture<Block> a = client.submit("a", args -> new Block(7, 700));
            ClusterFuture<Integer> b = client.submit("b", args -> ((Block) args.get(0)).n, a);
            CompletableFuture<Integer> result = b.toCompletableFuture();
            try {
                result.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // fall through to the assertion, which says why
            }
            assertThat(result).as("b, whose input cannot be read back once spilled (tasks run: %d)",
                    cluster.stats().workers().get(0).executed()).isCompletedWithValue(7);
        }
    }
}
