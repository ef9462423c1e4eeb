/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MembershipScenario;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker process that stops and a new one that rejoins under the same id, at the same address
 * (issue 17), in this JVM: the new process is admitted as a new incarnation and works, and a late
 * frame of the old incarnation, sent from that address as the dead process could have had it in
 * flight, is refused and counted, not applied; the same frame under the current incarnation is
 * applied, so the refusal is the incarnation's doing.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RejoinTest {

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aRestartedWorkerRejoinsUnderItsIdAndTheOldIncarnationsFramesAreRefused() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "rejoin";
        String seed = "127.0.0.1:" + ports[0];
        started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed).build(), 0, 2));
        PekkoWorker first = PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed).port(ports[1])
                .build(), 1, 2);
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60)));
        // held (not released) to the end: a released value's holders are not recorded
        ClusterFuture<Integer> held = coordinator.client().submit(TaskSpec.builder("held-0", in -> 7)
                .restrictions(Restrictions.strict(Set.of(0))).build());
        assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo(7);
        long old = first.incarnation();

        first.close();
        await(() -> coordinator.isLost(1) && !alive(coordinator.stats(), 1), "worker 1 is lost");
        PekkoWorker again = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                .port(ports[1]).build(), 1, 2));
        await(() -> alive(coordinator.stats(), 1), "worker 1 has rejoined");
        assertThat(again.address()).as("the same address").isEqualTo("127.0.0.1:" + ports[1]);
        assertThat(again.incarnation()).as("a new incarnation").isNotEqualTo(old);
        // held to the end too: released once unreachable, its value would leave worker 1's count
        ClusterFuture<Integer> onOne = coordinator.client().submit(TaskSpec.builder("on-1", in -> 8)
                .restrictions(Restrictions.strict(Set.of(1))).build());
        assertThat(onOne.get(60, TimeUnit.SECONDS)).isEqualTo(8);

        // the stale process: a frame of worker 1's old incarnation from worker 1's address, with a
        // memory report (a worker without a memory limit sends none itself, so the coordinator's
        // figure shows which report it applied; a DataAdded nobody asked for is released, not applied)
        Address target = AddressFromURIString.parse("pekko://" + cluster + "@" + coordinator.address());
        long rejectedBefore = coordinator.rejectedFrames();
        again.outboxForTests().send(target, new Wire.Frame(Wire.COORDINATOR, old,
                new Message.MemoryReport(1, 11_111, 0, false)), again.keyForTests());
        await(() -> coordinator.rejectedFrames() == rejectedBefore + 1, "the late frame is refused");
        assertThat(coordinator.stats().workers().get(1).memoryBytes()).as("not applied").isNotEqualTo(11_111);

        // the same frame from the current incarnation is applied
        again.outboxForTests().send(target, new Wire.Frame(Wire.COORDINATOR, again.incarnation(),
                new Message.MemoryReport(1, 22_222, 0, false)), again.keyForTests());
        await(() -> coordinator.stats().workers().get(1).memoryBytes() == 22_222, "the current frame is applied");
        assertThat(coordinator.rejectedFrames()).isEqualTo(rejectedBefore + 1);
        assertThat(held.get()).isEqualTo(7);
        assertThat(onOne.get()).isEqualTo(8);
    }

    private static boolean alive(ClusterStats s, int id) {
        return s.workers().size() > id && s.workers().get(id).alive();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        MembershipScenario.await(condition, () -> what);
    }
}
