/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defects found in the session-26 review of the workers' memory limit: each test failed on the
 * code before its fix (docs/measurements/2026-11-29-s26/cluster-review-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryLimitRegressionTest {

    private static final int MB = 1_000_000;

    /**
     * A value over the pause fraction by itself, which could spill: it was kept in memory as the
     * value just stored, so the store stayed paused with nothing else to spill, and its worker
     * never started another task.
     */
    @Test
    void aSpillableValueLargerThanThePauseFractionGoesToDiskInsteadOfPausingTheStore(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            byte[] big = new byte[17 * MB / 10];
            big[7] = 7;
            store.put("big", big, big.length);
            assertThat(store.paused()).as("paused (memory %d of a 2 MB limit)", store.memoryBytes()).isFalse();
            assertThat(store.spilledBytes()).isEqualTo(big.length);
            byte[] back = (byte[]) store.get("big");
            assertThat(back).hasSize(big.length);
            assertThat(back[7]).isEqualTo((byte) 7);
            assertThat(store.paused()).as("paused after reading it back").isFalse();
        } finally {
            store.clear();
        }
    }

    @Test
    void aWorkerWhoseOneResultIsOverThePauseFractionRunsItsDependent() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(2L * MB)
                .build()) {
            Client client = cluster.client();
            ClusterFuture<byte[]> a = client.submit("a", args -> new byte[17 * MB / 10]);
            ClusterFuture<Integer> b = client.submit("b", args -> ((byte[]) args.get(0)).length, a);
            java.util.concurrent.CompletableFuture<Integer> result = b.toCompletableFuture();
            try {
                result.get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // fall through to the assertion, which says why
            }
            assertThat(result).as("b, whose input alone is over the pause fraction (worker paused: %s)",
                    cluster.stats().workers().get(0).paused()).isCompletedWithValue(17 * MB / 10);
        }
    }
}
