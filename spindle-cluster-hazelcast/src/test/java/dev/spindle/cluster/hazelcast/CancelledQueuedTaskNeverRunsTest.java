/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.RunGate;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Over the wire as in process: a task cancelled while it is queued behind a long-running one on
 * a one-thread worker is asked back from the worker (the steal protocol's request, which this
 * transport carries already) and never runs; the coordinator's counts end as if it had never
 * been submitted. The worker runs in this JVM: the tasks' bodies find this run's latches and
 * count by the id they capture ({@link RunGate}), fresh for each run, so that a second run in
 * the JVM (a rerun, a repeated test) does not find latches a first one counted down.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CancelledQueuedTaskNeverRunsTest {

    /** This run's latches, and its count of the victim's runs: fresh for each run. */
    private RunGate run;

    @BeforeEach
    void openRun() {
        run = RunGate.open();
    }

    @AfterEach
    void closeRun() {
        run.close();                          // opens the gate: 'slow' ends if a failure left it waiting
    }

    @Test
    void aTaskCancelledWhileQueuedOnARemoteWorkerNeverRuns() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-cancel-" + ports[0];
        try (Cleanup cleanup = new Cleanup()) {
            cleanup.add(HazelcastWorker.start(settings(cluster, ports[1], ports), 0, 1));
            HazelcastCoordinator c = cleanup.add(HazelcastCoordinator.start(settings(cluster, ports[0], ports),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).stealing(false).build(),
                    Duration.ofSeconds(60)));
            Client client = c.client();
            String id = run.id();
            ClusterFuture<Integer> slow = client.submit("slow", args -> {
                RunGate r = RunGate.of(id);
                r.started().countDown();
                r.gate().await(60, TimeUnit.SECONDS);
                return 1;
            });
            assertThat(run.started().await(60, TimeUnit.SECONDS)).isTrue();
            ClusterFuture<Integer> victim = client.submit("victim",
                    args -> RunGate.of(id).count().incrementAndGet());
            await("'victim' sent to the worker", () -> c.stats().workers().get(0).processing() == 2);

            assertThat(victim.cancel(false)).isTrue();
            await("'victim' given up by its worker", () -> c.stats().workers().get(0).processing() == 1);
            run.gate().countDown();
            assertThat(slow.get(60, TimeUnit.SECONDS)).isEqualTo(1);

            ClusterStats stats = c.stats();
            assertThat(run.count()).as("'victim' never ran").hasValue(0);
            assertThat(stats.workers().get(0).processing()).isZero();
            assertThat(stats.tasksExecuted()).as("'slow' alone").isEqualTo(1);
            assertThat(stats.tasksInMemory()).isEqualTo(1);
            assertThat(stats.tasksCancelled()).isEqualTo(1);
            assertThat(stats.stealsRequested()).as("not a steal").isZero();
            // 'slow' counts as in memory above: a future collected after its last use (a compiled
            // frame drops it after slow.get) is released by the cleaner, and its value with it
            Reference.reachabilityFence(slow);
        }
    }

    private static HazelcastClusterSettings settings(String cluster, int port, int[] ports) {
        return InProcessClusterTest.settings(cluster, "cancel-secret-0123456789-abcdef", port, ports).build();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting until %s", what).isNegative();
            Thread.sleep(5);
        }
    }
}
