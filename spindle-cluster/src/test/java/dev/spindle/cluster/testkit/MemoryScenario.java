/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The memory-limit scenario every transport between JVMs must pass (issue 17), on a coordinator
 * whose only worker, 0, has a limit of 1,000,000 bytes and spills under {@code spill}: ten values
 * of 200,000 bytes are made and held; the worker spills the least recently used ones to a private
 * directory, reports its memory (at most the 60 % target) and spilled bytes to the coordinator's
 * stats, reads them back for a task that needs them all, and deletes its spill files when it
 * stops.
 */
public final class MemoryScenario {

    /** The worker's memory limit in bytes. */
    public static final long LIMIT = 1_000_000;
    private static final int PART = 200_000;

    private MemoryScenario() {
    }

    /** Runs the scenario; {@code worker} stops the worker at the end. */
    public static void run(Client client, Supplier<ClusterStats> stats, Path spill, AutoCloseable worker)
            throws Exception {
        List<ClusterFuture<byte[]>> parts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            byte fill = (byte) i;
            parts.add(client.submit("part-" + i, args -> {
                byte[] data = new byte[PART];
                Arrays.fill(data, fill);
                return data;
            }));
        }
        for (ClusterFuture<byte[]> p : parts) {
            assertThat(p.get(60, TimeUnit.SECONDS)).hasSize(PART);
        }

        // the worker reports its store every 100 ms, when it changed: a report taken while the
        // last parts were being stored can arrive after their results, so wait for the one after
        MembershipScenario.await(() -> {
            ClusterStats.WorkerStats r = stats.get().workers().get(0);
            return r.spilledBytes() > 0 && r.memoryBytes() + r.spilledBytes() >= 10L * PART;
        }, () -> "worker 0 reports spilled bytes and every part: " + stats.get());
        ClusterStats.WorkerStats w = stats.get().workers().get(0);
        assertThat(w.memoryBytes()).as("in memory, at most the 60 %% target").isLessThanOrEqualTo(LIMIT * 6 / 10);
        assertThat(w.memoryBytes() + w.spilledBytes()).as("every part, in memory or on disk")
                .isGreaterThanOrEqualTo(10L * PART);
        assertThat(w.keysHeld()).isEqualTo(10);
        List<Path> dirs;
        try (Stream<Path> s = Files.list(spill)) {
            dirs = s.toList();
        }
        assertThat(dirs).singleElement()
                .satisfies(d -> assertThat(d.getFileName().toString()).startsWith("spindle-spill-"));
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dirs.get(0)))).isEqualTo("rwx------");
        }

        // a task that needs every part reads the spilled ones back
        ClusterFuture<Integer> sum = client.submit("sum", args -> {
            int total = 0;
            for (Object a : args) {
                byte[] data = (byte[]) a;
                total += data.length == PART ? data[PART - 1] : -1000;
            }
            return total;
        }, parts.toArray(new ClusterFuture<?>[0]));
        assertThat(sum.get(60, TimeUnit.SECONDS)).isEqualTo(45);

        worker.close();
        try (Stream<Path> s = Files.list(spill)) {
            assertThat(s.toList()).as("spill files deleted when the worker stops").isEmpty();
        }
    }
}
