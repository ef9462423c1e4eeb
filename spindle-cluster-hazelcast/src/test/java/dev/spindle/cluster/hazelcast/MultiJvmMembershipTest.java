/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

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
 * The shared {@link MembershipScenario} on Hazelcast worker members in their own JVMs: a worker
 * joins late, a killed one restarts under a new id, another killed one restarts under its own id
 * (a new incarnation) at once, before the coordinator has seen the old process leave (it is
 * frozen, as a crashed host looks, and the heartbeat timeout below is long), so the new process
 * must wait for that and then join; one retires; every task runs once outside the killed JVMs. And
 * a retired worker's process leaves and exits with status 0 once its data has moved.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MultiJvmMembershipTest {

    private static final String SECRET = "multi-jvm-secret-0123456789";
    private static final int MAX_WORKERS = 4;
    /**
     * Heartbeat timeout of every member, coordinator and workers. This scenario runs for a minute or more with two
     * to four worker JVMs; with 8 s, a worker starved of CPU on a loaded 2-core machine was
     * declared dead by the coordinator's member while alive, formed a cluster of its own, and the
     * restarted worker joined that one instead (seen in CI). A killed worker is still detected
     * well within the scenario's waits.
     */
    private static final String FAILURE_SECONDS = "20";

    private final Cleanup started = new Cleanup();
    private final java.util.concurrent.atomic.AtomicInteger launched = new java.util.concurrent.atomic.AtomicInteger();

    @AfterEach
    void stopEverything() throws Exception {
        started.close();
    }

    @Test
    void workersJoinLateRestartAfterAKillAndRetireWithEveryTaskRunOnce() throws Exception {
        // the coordinator's port, then one per worker JVM started (id 2 twice: a same-id restart)
        Run run = startWithWorkers0And1("membership", MAX_WORKERS + 2);
        MembershipScenario.run(run.workers, run.coordinator::client, run.coordinator::stats, run.coordinator::retire,
                run.dir, MembershipScenario.SameIdRestart.IMMEDIATE);
    }

    @Test
    void aRetiredWorkersProcessLeavesAndExitsWithZeroOnceItsDataHasMoved() throws Exception {
        Run run = startWithWorkers0And1("retire", 3);
        MembershipScenario.retireEndsTheProcess(run.workers, run.coordinator::client, run.coordinator::stats,
                run.coordinator::retire, run.dir);
    }

    /** A run's worker JVMs, coordinator and log folder. */
    private record Run(MembershipScenario.Workers workers, HazelcastCoordinator coordinator, Path dir) {
    }

    /** Starts worker JVMs 0 and 1 and a coordinator for them; {@code ports} ports in all (coordinator first). */
    private Run startWithWorkers0And1(String name, int ports) throws Exception {
        int[] free = FreePorts.free(ports);
        String cluster = "spindle-" + name + "-" + free[0];
        Path dir = Files.createDirectories(Path.of("target", "worker-logs", name + "-" + free[0]));
        MembershipScenario.Workers workers = new MembershipScenario.Workers(id -> start(id, cluster, free, dir),
                id -> "spindle worker " + id + " ready");
        workers.start(0);
        workers.start(1);
        HazelcastClusterSettings.Builder settings = InProcessClusterTest.settings(cluster, SECRET, free[0], free)
                .allowPackage("dev.spindle.cluster.testkit").failureSeconds(Integer.parseInt(FAILURE_SECONDS));
        HazelcastCoordinator coordinator = started.add(HazelcastCoordinator.start(settings.build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(90)));
        return new Run(workers, coordinator, dir);
    }

    private WorkerJvm start(int id, String cluster, int[] ports, Path dir) throws Exception {
        int n = launched.incrementAndGet();   // a restarted worker gets a port (and a log) of its own
        StringBuilder members = new StringBuilder();
        for (int p : ports) {
            members.append(members.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
        }
        return started.add(WorkerJvm.startLogged(WorkerMain.class,
                List.of("@jvm.args", "-Xmx192m", "-Dhazelcast.logging.type=jdk"), Map.of("SPINDLE_SECRET", SECRET),
                List.of("--id", Integer.toString(id), "--threads", "2", "--cluster", cluster, "--port",
                        Integer.toString(ports[n]), "--members", members.toString(), "--failure-seconds", FAILURE_SECONDS,
                        "--allow", "dev.spindle.cluster.testkit"),
                dir.resolve("worker-" + id + (n > id + 1 ? "-restart" : "") + ".log").toFile()));
    }
}
