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
     * The coordinator's join timeout: the longest wait for the first worker at the start, and for
     * the restarted worker's probes at the end; generous, since a loaded machine may be slow to
     * start a member, and never waited out.
     */
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);

    /**
     * How long the late joiner's probes fail before its join is given up, which the test waits
     * out ({@link PekkoCoordinator#lateJoinTimeoutForTests}). Its probes never succeed; all that
     * must come first is the joiner seeing itself Up, a gossip round (about a second) after the
     * coordinator did, which starts this wait.
     */
    private static final Duration GIVEN_UP_AFTER = Duration.ofSeconds(5);

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        PekkoCoordinator.answersProbeForTests = id -> true;
        PekkoCoordinator.lateJoinTimeoutForTests = null;
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
        PekkoCoordinator.lateJoinTimeoutForTests = GIVEN_UP_AFTER;

        PekkoWorker late = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                .build(), 1, 1));
        late.joined().toCompletableFuture().get(60, TimeUnit.SECONDS);
        MembershipScenario.await(() -> coordinator.isLost(1), () -> "the given-up joiner is lost at the coordinator");
        late.terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // downed, it left

        // a process restarted under the id is admitted now: the id is free
        PekkoCoordinator.answersProbeForTests = id -> true;
        PekkoCoordinator.lateJoinTimeoutForTests = null;               // its admission has the join timeout
        started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed).build(), 1, 1));
        MembershipScenario.await(() -> alive(coordinator.stats(), 1), () -> "the restarted worker 1 is admitted");
    }

    private static boolean alive(ClusterStats s, int id) {
        return s.workers().size() > id && s.workers().get(id).alive();
    }
}
