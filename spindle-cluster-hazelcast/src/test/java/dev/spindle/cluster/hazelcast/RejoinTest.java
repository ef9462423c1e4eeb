/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MembershipScenario;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker process that stops and a new one that rejoins under the same id (issue 17), in this
 * JVM: the new process is admitted as a new incarnation and works, and a late frame signed with
 * the old incarnation, as the dead process could still have in flight (or as anyone holding the
 * secret could replay), is refused and counted, not applied; the same frame under the current
 * incarnation is applied, so the refusal is the incarnation's doing. And a new process that proves
 * the id while the coordinator still holds the old one live is told that its claim waits (not
 * refused), and joins as the new incarnation once the old one leaves. A retired worker whose
 * {@code Retired} message is lost is told again until its member has left.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RejoinTest {

    private static final String SECRET = "rejoin-test-secret-0123456789";
    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aRestartedWorkerRejoinsUnderItsIdAndTheOldIncarnationsFramesAreRefused() throws Exception {
        Run run = startWorkers0And1("spindle-rejoin-", 5);
        int[] ports = run.ports();
        String cluster = run.cluster();
        List<HazelcastWorker> workers = run.workers();
        HazelcastCoordinator coordinator = run.coordinator();
        // held (not released) to the end: a released value's holders are not recorded
        ClusterFuture<Integer> held = coordinator.client().submit(TaskSpec.builder("held-0", in -> 7)
                .restrictions(Restrictions.strict(Set.of(0))).build());
        assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo(7);
        long old = coordinator.incarnation(1);

        workers.get(1).close();
        await(() -> coordinator.isLost(1) && !alive(coordinator.stats(), 1), "worker 1 is lost");
        HazelcastWorker again = HazelcastWorker.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[3], ports).build(), 1, 2);
        started.add(again);
        await(() -> alive(coordinator.stats(), 1), "worker 1 has rejoined");
        assertThat(coordinator.incarnation(1)).as("a new incarnation").isNotEqualTo(old);
        // held to the end too: released once unreachable, its value would leave worker 1's count
        ClusterFuture<Integer> onOne = coordinator.client().submit(TaskSpec.builder("on-1", in -> 8)
                .restrictions(Restrictions.strict(Set.of(1))).build());
        assertThat(onOne.get(60, TimeUnit.SECONDS)).isEqualTo(8);

        // the stale process: a signed frame of this session from worker 1's old incarnation, with a
        // memory report (a worker without a memory limit sends none itself, so the coordinator's
        // figure shows which report it applied; a DataAdded nobody asked for is released, not
        // applied); delivered by a plain member
        HazelcastInstance stale = Intruder.join(cluster, ports[4], ports, Map.of(), null);
        started.add(stale::shutdown);
        FrameCodec codec = new FrameCodec(SECRET.getBytes(StandardCharsets.UTF_8), List.of());
        Member target = coordinator.instance().getCluster().getLocalMember();
        long replaysBefore = coordinator.securityStats().replays();
        byte[] late = codec.seal(new Wire.Frame(coordinator.session().id(), 1, old, Wire.COORDINATOR, 1_000_000,
                new Message.MemoryReport(1, 11_111, 0, false)));
        stale.getExecutorService(HazelcastConfigs.MESSAGES).executeOnMember(new Deliver(late), target);
        await(() -> coordinator.securityStats().replays() == replaysBefore + 1, "the late frame is refused");
        assertThat(coordinator.stats().workers().get(1).memoryBytes()).as("not applied").isNotEqualTo(11_111);

        // the same frame from the current incarnation is applied
        byte[] current = codec.seal(new Wire.Frame(coordinator.session().id(), 1, coordinator.incarnation(1),
                Wire.COORDINATOR, 1_000_001, new Message.MemoryReport(1, 22_222, 0, false)));
        stale.getExecutorService(HazelcastConfigs.MESSAGES).executeOnMember(new Deliver(current), target);
        await(() -> coordinator.stats().workers().get(1).memoryBytes() == 22_222, "the current frame is applied");
        assertThat(coordinator.securityStats().replays()).isEqualTo(replaysBefore + 1);
        assertThat(held.get()).isEqualTo(7);
        assertThat(onOne.get()).isEqualTo(8);
    }

    @Test
    void aProcessRestartedBeforeItsPredecessorIsSeenLeavingWaitsAndJoinsOnceItIsLost() throws Exception {
        Run run = startWorkers0And1("spindle-rejoin-wait-", 4);
        HazelcastCoordinator coordinator = run.coordinator();
        long old = coordinator.incarnation(1);

        // a new process for id 1 while the coordinator still holds the old one live, as it does
        // until a crashed process's heartbeat timeout runs out
        HazelcastWorker again = HazelcastWorker.start(
                InProcessClusterTest.settings(run.cluster(), SECRET, run.ports()[3], run.ports()).build(), 1, 2);
        started.add(again);
        await(() -> again.roster().waiting() != null || again.roster().refusal() != null,
                "the new process is told that its claim waits");
        assertThat(again.roster().refusal()).as("not refused for good").isNull();
        assertThat(coordinator.incarnation(1)).as("the old process still holds the id").isEqualTo(old);

        run.workers().get(1).close();         // the old process leaves: the claim is tried again
        again.awaitCoordinator(Duration.ofSeconds(60));
        await(() -> alive(coordinator.stats(), 1) && coordinator.incarnation(1) != old, "worker 1 has rejoined");
        ClusterFuture<Integer> onOne = coordinator.client().submit(TaskSpec.builder("on-new-1", in -> 9)
                .restrictions(Restrictions.strict(Set.of(1))).build());
        assertThat(onOne.get(60, TimeUnit.SECONDS)).isEqualTo(9);
        assertThat(again.executed()).as("run by the new process").isEqualTo(1);
    }

    @Test
    void aRetiredWorkerWhoseRetiredMessageIsLostIsToldAgainAndLeaves() throws Exception {
        Run run = startWorkers0And1("spindle-retired-", 3);
        HazelcastWorker zero = run.workers().get(0);
        java.util.concurrent.CountDownLatch left = new java.util.concurrent.CountDownLatch(1);
        zero.onMemberShutdown(left::countDown);
        zero.loseNextRetiredForTests();       // Hazelcast delivers a frame at most once: this one is lost

        run.coordinator().retire(0).get(60, TimeUnit.SECONDS);
        assertThat(left.await(60, TimeUnit.SECONDS)).as("the retired worker's member left").isTrue();
        assertThat(zero.retired()).as("because it was retired").isTrue();
        assertThat(run.coordinator().client().submit("after", in -> 5).get(60, TimeUnit.SECONDS)).isEqualTo(5);
    }

    /** A cluster's ports (the coordinator's first), name, workers 0 and 1 and coordinator. */
    private record Run(int[] ports, String cluster, List<HazelcastWorker> workers, HazelcastCoordinator coordinator) {
    }

    /** Starts workers 0 and 1 on ports 1 and 2 of {@code ports} free ones and their coordinator on port 0. */
    private Run startWorkers0And1(String name, int ports) throws Exception {
        int[] free = FreePorts.free(ports);
        String cluster = name + free[0];
        List<HazelcastWorker> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HazelcastWorker w = HazelcastWorker.start(
                    InProcessClusterTest.settings(cluster, SECRET, free[1 + i], free).build(), i, 2);
            started.add(w);
            workers.add(w);
        }
        HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, free[0], free).build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60));
        started.add(coordinator);
        return new Run(free, cluster, workers, coordinator);
    }

    private static boolean alive(ClusterStats s, int id) {
        return s.workers().size() > id && s.workers().get(id).alive();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        MembershipScenario.await(condition, () -> what);
    }
}
