/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MembershipScenario;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that joins after the start is admitted once every worker answers a probe; if the
 * probes fail for the whole join timeout, the coordinator gives the join up. It did so silently:
 * the joiner stayed registered and Up, never admitted, and a process restarted under its id
 * waited for ever, since the id's holder was never lost. Now the given-up joiner is handled as a
 * lost worker: downed, and its id free again.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LateJoinGivenUpTest {

    /**
     * The coordinator's join timeout: the longest wait for the first worker at the start, and the
     * time the late joiner's probes fail before the join is given up, which the test waits out.
     * Long enough for a loaded machine to start the first worker, no longer (it was 30 s).
     */
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(20);

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        PekkoCoordinator.answersProbeForTests = id -> true;
        started.close();
    }

    @Test
    void aLateJoinerWhoseProbesFailForTheJoinTimeoutIsDownedAndItsIdFreed() throws Exception {
        int[] ports = FreePorts.free(1);
        String cluster = "late-given-up";
        String seed = "127.0.0.1:" + ports[0];
        started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed).build(), 0, 1));
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), JOIN_TIMEOUT));
        PekkoCoordinator.answersProbeForTests = id -> id != 1;          // worker 1 never answers

        PekkoWorker late = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                .build(), 1, 1));
        late.joined().toCompletableFuture().get(60, TimeUnit.SECONDS);
        MembershipScenario.await(() -> coordinator.isLost(1), () -> "the given-up joiner is lost at the coordinator");
        late.terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // downed, it left

        // a process restarted under the id is admitted now: the id is free
        PekkoCoordinator.answersProbeForTests = id -> true;
        started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed).build(), 1, 1));
        MembershipScenario.await(() -> alive(coordinator.stats(), 1), () -> "the restarted worker 1 is admitted");
    }

    private static boolean alive(ClusterStats s, int id) {
        return s.workers().size() > id && s.workers().get(id).alive();
    }
}
