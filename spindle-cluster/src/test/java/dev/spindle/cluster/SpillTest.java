/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Spilling to disk above a worker's memory limit, read-back on demand, and the pause fraction. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpillTest {

    private static final int MB = 1_000_000;

    private static MemoryReleaseTest.Chunk filled(int bytes, int fill) {
        byte[] data = new byte[bytes];
        Arrays.fill(data, (byte) fill);
        return new MemoryReleaseTest.Chunk(data);
    }

    /** Sized but not serialisable: it cannot be written to disk. */
    record Pinned(long sizeInBytes) implements Sized {
    }

    @Test
    void leastRecentlyUsedValuesSpillAboveTheTargetAndComeBackOnDemand() {
        DataStore store = new DataStore(10L * MB);
        try {
            for (int i = 0; i < 20; i++) {
                store.put("k-" + i, filled(MB, i), MB);
                assertThat(store.memoryBytes()).isLessThanOrEqualTo(6L * MB);
            }
            assertThat(store.keys()).isEqualTo(20);
            assertThat(store.memoryBytes() + store.spilledBytes()).isEqualTo(20L * MB);
            assertThat(store.spilledBytes()).isGreaterThanOrEqualTo(14L * MB);

            long spills = store.spills();
            assertThat(((MemoryReleaseTest.Chunk) store.get("k-19")).data()).containsOnly((byte) 19);
            assertThat(store.spills()).as("the most recent value was in memory").isEqualTo(spills);
            assertThat(((MemoryReleaseTest.Chunk) store.get("k-0")).data()).hasSize(MB).containsOnly((byte) 0);
            assertThat(store.spills()).as("reading k-0 back spilled another").isEqualTo(spills + 1);
            assertThat(store.memoryBytes()).isLessThanOrEqualTo(6L * MB);

            store.remove("k-1");                      // spilled: its file goes, its bytes too
            assertThat(store.memoryBytes() + store.spilledBytes()).isEqualTo(19L * MB);
            assertThat(store.paused()).isFalse();
        } finally {
            store.clear();
        }
        assertThat(store.keys()).isZero();
        assertThat(store.spilledBytes()).isZero();
    }

    @Test
    void valuesThatCannotSpillPauseTheStoreAboveEightyPercent() {
        DataStore store = new DataStore(10L * MB);
        for (int i = 0; i < 9; i++) {
            store.put("p-" + i, new Pinned(MB), MB);
        }
        assertThat(store.spilledBytes()).isZero();
        assertThat(store.memoryBytes()).isEqualTo(9L * MB);
        assertThat(store.paused()).isTrue();
        store.remove("p-0");
        store.remove("p-1");
        assertThat(store.paused()).isFalse();
    }

    @Test
    void withoutALimitNothingSpills() {
        DataStore store = new DataStore();
        for (int i = 0; i < 20; i++) {
            store.put("n-" + i, filled(MB, i), MB);
        }
        assertThat(store.spilledBytes()).isZero();
        assertThat(store.paused()).isFalse();
        assertThatThrownBy(() -> new DataStore(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> LocalCluster.builder().memoryLimitPerWorker(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("memoryLimitPerWorker");
    }

    @Test
    void aWorkerOverItsLimitSpillsAndItsTasksStillReadEveryValue() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(10L * MB)
                .build()) {
            Client client = cluster.client();
            List<ClusterFuture<MemoryReleaseTest.Chunk>> parts = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int fill = i;
                parts.add(client.submit("part-" + i, args -> filled(MB, fill)));
            }
            client.gather(parts);
            ClusterStats.WorkerStats w = cluster.stats().workers().get(0);
            assertThat(w.memoryBytes()).isLessThanOrEqualTo(6L * MB);
            assertThat(w.spilledBytes()).isGreaterThanOrEqualTo(14L * MB);
            assertThat(w.keysHeld()).isEqualTo(20);
            ClusterFuture<Long> sum = client.submit("sum", args -> {
                long total = 0;
                for (int i = 0; i < args.size(); i++) {
                    byte[] data = ((MemoryReleaseTest.Chunk) args.get(i)).data();
                    total += data.length * (long) data[0];
                }
                return total;
            }, parts.toArray(new ClusterFuture<?>[0]));
            assertThat(sum.get()).isEqualTo((long) MB * (19 * 20 / 2));
            assertThat(cluster.stats().workers().get(0).memoryBytes()).isLessThanOrEqualTo(6L * MB);
        }
    }

    /**
     * A worker JVM's spill files: in a private directory under the configured parent, read back
     * only at the length written (a file that grew or shrank on disk is refused with the reason,
     * not read), and gone once the store is cleared.
     */
    @Test
    void spillFilesLiveInAPrivateDirectoryAndAreReadBackOnlyAtTheLengthWritten(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            for (int i = 0; i < 4; i++) {
                store.put("k-" + i, filled(MB, i), MB);
            }
            assertThat(store.spilledBytes()).isGreaterThanOrEqualTo(2L * MB);
            List<Path> dirs;
            try (Stream<Path> s = Files.list(parent)) {
                dirs = s.toList();
            }
            assertThat(dirs).hasSize(1);
            Path dir = dirs.get(0);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
            }
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.sorted().toList();
            }
            assertThat(files).hasSizeGreaterThanOrEqualTo(2);
            // k-0 and k-1 spilled first, to v1 and v2: one grows on disk, one is cut short
            Files.write(files.get(0), new byte[64], StandardOpenOption.APPEND);
            Files.write(files.get(1), Arrays.copyOf(Files.readAllBytes(files.get(1)), 100));
            assertThatThrownBy(() -> store.get("k-0")).hasMessageContaining("were written");
            assertThatThrownBy(() -> store.get("k-1")).hasMessageContaining("were written");
            assertThat(((MemoryReleaseTest.Chunk) store.get("k-3")).data()).containsOnly((byte) 3);
        } finally {
            store.clear();
        }
        try (Stream<Path> s = Files.list(parent)) {
            assertThat(s.toList()).as("the spill directory is deleted").isEmpty();
        }
    }
}
