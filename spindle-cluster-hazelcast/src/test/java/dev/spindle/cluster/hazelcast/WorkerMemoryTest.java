/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.WorkerMemory;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MembershipScenario;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker member with a small memory limit (issue 17), as {@code WorkerMain --memory-limit}
 * starts one: it spills its least recently used values to a private directory, reads them back
 * for a task that needs them, reports its memory and spilled bytes to the coordinator's stats, and
 * deletes its spill files when it stops.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerMemoryTest {

    private static final String SECRET = "worker-memory-secret-0123456789";
    private static final int PART = 200_000;

    private final Cleanup started = new Cleanup();

    @TempDir
    Path spill;

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aWorkerOverItsLimitSpillsReadsBackReportsItAndDeletesItsFilesWhenItStops() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-memory-" + ports[0];
        HazelcastWorker worker = HazelcastWorker.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 2,
                new WorkerMemory(1_000_000, spill));
        started.add(worker);
        HazelcastCoordinator coordinator = started.add(HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60)));
        Client client = coordinator.client();
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

        MembershipScenario.await(() -> coordinator.stats().workers().get(0).spilledBytes() > 0,
                () -> "worker 0 reports spilled bytes: " + coordinator.stats());
        ClusterStats.WorkerStats w = coordinator.stats().workers().get(0);
        assertThat(w.memoryBytes()).as("in memory, at most the 60 %% target").isLessThanOrEqualTo(600_000);
        assertThat(w.memoryBytes() + w.spilledBytes()).as("every part, in memory or on disk")
                .isGreaterThanOrEqualTo(10L * PART);
        assertThat(w.keysHeld()).isEqualTo(10);
        List<Path> dirs;
        try (Stream<Path> s = Files.list(spill)) {
            dirs = s.toList();
        }
        assertThat(dirs).singleElement().satisfies(d -> assertThat(d.getFileName().toString()).startsWith("spindle-spill-"));
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
