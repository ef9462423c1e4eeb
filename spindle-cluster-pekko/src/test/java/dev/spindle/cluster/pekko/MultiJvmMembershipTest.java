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
 * TLS: a worker joins late, a killed one restarts under a new id, one retires; every task runs
 * once outside the killed JVM.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MultiJvmMembershipTest {

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stopEverything() throws Exception {
        started.close();
    }

    @Test
    void workersJoinLateRestartAfterAKillAndRetireWithEveryTaskRunOnce() throws Exception {
        int port = FreePorts.free();
        String cluster = "spindle-memb-" + port;
        Path dir = Files.createDirectories(Path.of("target", "worker-logs", "membership-" + port).toAbsolutePath());
        MembershipScenario.Workers workers = new MembershipScenario.Workers(id -> start(id, cluster, port, dir));
        workers.start(0);
        workers.start(1);
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(TestCerts.settings(cluster, "coordinator")
                        .port(port).allowPackage("dev.spindle.cluster.testkit").build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(90)));
        MembershipScenario.run(workers, coordinator::client, coordinator::stats, coordinator::retire, dir);
    }

    private WorkerJvm start(int id, String cluster, int coordinatorPort, Path dir) throws Exception {
        DevCertificates certs = TestCerts.get();
        return started.add(WorkerJvm.startLogged(WorkerMain.class, List.of("-Xmx160m", "-Xss1m"),
                Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD), List.of("--id", Integer.toString(id), "--threads",
                        "2", "--cluster", cluster, "--key-store", certs.memberStore("worker").toString(),
                        "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:" + coordinatorPort,
                        "--failure-seconds", "3", "--allow", "dev.spindle.cluster.testkit"),
                dir.resolve("worker-" + id + ".log").toFile()));
    }
}
