/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.WorkerJvm;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shutting the cluster down from outside (issue 12). Open-source Hazelcast lets any process that
 * reaches a member port join without the secret; {@code Cluster.shutdown()} from such a member
 * shut every member down. Its cluster-state change now fails, because members refuse to
 * Java-deserialise anything outside their short list; but a joined member keeps other means to
 * disrupt membership, which only a trusted network prevents. What Spindle guarantees is that a
 * worker whose member is shut down from elsewhere exits, non-zero and with the reason, instead of
 * idling forever.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterShutdownTest {

    private static final String SECRET = "shutdown-test-secret-0123456789";

    @Test
    void clusterShutdownFromAJoinedMemberFailsAndTheWorkerStays() throws Exception {
        int[] ports = FreePorts.free(3);
        String cluster = "spindle-shutdown-" + ports[0];
        String members = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
        try (WorkerJvm worker = WorkerMainTest.launch(SECRET, List.of("--id", "0", "--threads", "1", "--cluster", cluster,
                "--port", Integer.toString(ports[1]), "--members", members, "--failure-seconds", "8"));
             HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                     InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                     CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(90))) {
            worker.awaitOutput("spindle worker 0 ready", 90);
            HazelcastInstance intruder = Intruder.join(cluster, ports[2], ports, Map.of(), null);
            try {
                assertThat(intruder.getCluster().getMembers()).hasSize(3);
                assertThatThrownBy(() -> intruder.getCluster().shutdown()).hasMessageContaining("not allowed");
            } finally {
                intruder.shutdown();
            }
            assertThat(coordinator.client().submit("after", in -> 7).get(60, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(worker.err()).doesNotContain("stopped");
        }
    }

    @Test
    void aWorkerWhoseMemberIsShutDownFromElsewhereExitsWithTheReason() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-shutdown-" + ports[0];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> status = runWorkerInThisJvm(cluster, ports, out, err);
        try (HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(90))) {
            awaitReady(out);
            assertThat(status).isNotDone();
            // as a joined member's shutdown reaches it: the member stops, the JVM is not exiting
            Hazelcast.getHazelcastInstanceByName("spindle-worker-0-" + ports[1]).shutdown();
            assertThat(status.get(60, TimeUnit.SECONDS)).isEqualTo(WorkerMain.FAILED);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("worker 0 stopped: its Hazelcast member was shut down");
        }
    }

    /**
     * A worker whose member is shut down while it still waits for its coordinator (from
     * elsewhere, or by Hazelcast itself, as on an {@code OutOfMemoryError}) exits with the reason
     * at once. It waited out the whole coordinator wait for a coordinator it could no longer
     * hear of, and then threw from the shut-down member instead of giving the reason.
     */
    @Test
    void aWorkerWhoseMemberIsShutDownWhileItWaitsForTheCoordinatorExitsWithTheReason() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-shutdown-waiting-" + ports[0];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = {"--id", "0", "--threads", "1", "--cluster", cluster, "--port", Integer.toString(ports[1]),
                "--members", "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1], "--coordinator-wait-seconds", "600"};
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> WorkerMain.run(args,
                Map.of("SPINDLE_SECRET", SECRET), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!out.toString(StandardCharsets.UTF_8).contains("waiting up to") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(status).isNotDone();
        // no coordinator ever starts: the member stops while the worker waits for one
        Hazelcast.getHazelcastInstanceByName("spindle-worker-0-" + ports[1]).shutdown();
        assertThat(status.get(60, TimeUnit.SECONDS)).isEqualTo(WorkerMain.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("worker 0 stopped: its Hazelcast member was shut down");
    }

    /**
     * A worker serves one coordinator: when it leaves, the worker stops with the reason instead
     * of idling as an orphan member that a later worker of the same cluster could join (seen
     * when a coordinator declared a slow worker dead: the worker formed a cluster of its own and
     * captured the next worker started).
     */
    @Test
    void aWorkerWhoseCoordinatorLeavesExitsWithTheReason() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-orphan-" + ports[0];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> status = runWorkerInThisJvm(cluster, ports, out, err);
        try {
            try (HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(90))) {
                awaitReady(out);
                assertThat(coordinator.client().submit("before", in -> 7).get(60, TimeUnit.SECONDS)).isEqualTo(7);
                assertThat(status).isNotDone();
            }
            assertThat(status.get(60, TimeUnit.SECONDS)).isEqualTo(WorkerMain.FAILED);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("worker 0 stopped: its coordinator left the cluster");
        } finally {
            HazelcastInstance left = Hazelcast.getHazelcastInstanceByName("spindle-worker-0-" + ports[1]);
            if (left != null) {
                left.shutdown();               // without the fix the member would still run here
            }
        }
    }

    /** Runs {@code WorkerMain} for worker 0 of {@code cluster} on another thread of this JVM. */
    private static CompletableFuture<Integer> runWorkerInThisJvm(String cluster, int[] ports, ByteArrayOutputStream out,
                                                                 ByteArrayOutputStream err) {
        String[] args = {"--id", "0", "--threads", "1", "--cluster", cluster, "--port", Integer.toString(ports[1]),
                "--members", "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1]};
        return CompletableFuture.supplyAsync(() -> WorkerMain.run(args, Map.of("SPINDLE_SECRET", SECRET),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    }

    private static void awaitReady(ByteArrayOutputStream out) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!out.toString(StandardCharsets.UTF_8).contains("ready") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
