/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MembershipScenario;
import dev.spindle.cluster.testkit.WorkerJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared {@link MembershipScenario} on Pekko worker members in their own JVMs, over mutual
 * TLS: a worker joins late, a killed one restarts under a new id, another killed one restarts
 * under its own id (a new incarnation), one retires; every task runs once outside the killed
 * JVMs. And a retired worker's process leaves and exits with status 0 once its data has moved.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MultiJvmMembershipTest {

    private final Cleanup started = new Cleanup();
    private final java.util.concurrent.atomic.AtomicInteger launched = new java.util.concurrent.atomic.AtomicInteger();

    @AfterEach
    void stopEverything() throws Exception {
        started.close();
    }

    @Test
    void workersJoinLateRestartAfterAKillAndRetireWithEveryTaskRunOnce() throws Exception {
        Run run = startWithWorkers0And1("membership");
        MembershipScenario.run(run.workers, run.coordinator::client, run.coordinator::stats, run.coordinator::retire,
                run.dir, true);
    }

    @Test
    void aRetiredWorkersProcessLeavesAndExitsWithZeroOnceItsDataHasMoved() throws Exception {
        Run run = startWithWorkers0And1("retire");
        MembershipScenario.retireEndsTheProcess(run.workers, run.coordinator::client, run.coordinator::stats,
                run.coordinator::retire, run.dir);
    }

    /** A run's worker JVMs, coordinator and log folder. */
    private record Run(MembershipScenario.Workers workers, PekkoCoordinator coordinator, Path dir) {
    }

    /** Starts worker JVMs 0 and 1 and a coordinator for them. */
    private Run startWithWorkers0And1(String name) throws Exception {
        int port = FreePorts.free();
        String cluster = "spindle-" + name + "-" + port;
        Path dir = Files.createDirectories(Path.of("target", "worker-logs", name + "-" + port).toAbsolutePath());
        MembershipScenario.Workers workers = new MembershipScenario.Workers(id -> start(id, cluster, port, dir));
        workers.start(0);
        workers.start(1);
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(TestCerts.settings(cluster, "coordinator")
                        .port(port).allowPackage("dev.spindle.cluster.testkit").build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(90)));
        return new Run(workers, coordinator, dir);
    }

    private WorkerJvm start(int id, String cluster, int coordinatorPort, Path dir) throws Exception {
        DevCertificates certs = TestCerts.get();
        int n = launched.incrementAndGet();   // a restarted worker gets a log of its own
        return started.add(WorkerJvm.startLogged(WorkerMain.class, List.of("-Xmx160m", "-Xss1m"),
                Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD), List.of("--id", Integer.toString(id), "--threads",
                        "2", "--cluster", cluster, "--key-store", certs.memberStore("worker").toString(),
                        "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:" + coordinatorPort,
                        "--failure-seconds", "3", "--allow", "dev.spindle.cluster.testkit"),
                dir.resolve("worker-" + id + (n > id + 1 ? "-restart" : "") + ".log").toFile()));
    }
}
