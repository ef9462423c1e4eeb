/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.WorkerMemory;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MemoryScenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker member with a small memory limit (issue 17), as {@code WorkerMain --memory-limit}
 * starts one: the shared {@link MemoryScenario} (spill to a private directory, read back, memory
 * and spilled bytes in the coordinator's stats, files deleted when it stops).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerMemoryTest {

    private static final String SECRET = "worker-memory-secret-0123456789";
    private static final String TESTKIT = MemoryScenario.class.getPackageName();

    @Test
    void aWorkerOverItsLimitSpillsReadsBackReportsItAndDeletesItsFilesWhenItStops(@TempDir Path spill)
            throws Exception {
        try (Cleanup started = new Cleanup()) {
            int[] ports = FreePorts.free(2);
            String cluster = "spindle-memory-" + ports[0];
            HazelcastWorker worker = started.add(HazelcastWorker.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).allowPackage(TESTKIT).build(), 0, 2,
                    new WorkerMemory(MemoryScenario.LIMIT, spill)));
            HazelcastCoordinator coordinator = started.add(HazelcastCoordinator.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).allowPackage(TESTKIT).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60)));
            MemoryScenario.run(coordinator.client(), coordinator::stats, spill, worker);
        }
    }
}
