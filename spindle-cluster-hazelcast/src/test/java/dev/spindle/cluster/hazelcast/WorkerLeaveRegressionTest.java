/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.PoolThreads;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker whose member leaves the cluster on its own (its coordinator left, or it was retired)
 * has ended for good: nothing can reach its pool or its store any more. Its pool threads and held
 * values must go when its member shuts down, not linger until someone calls
 * {@link HazelcastWorker#close()}, which must stay safe to call afterwards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerLeaveRegressionTest {

    private static final String SECRET = "worker-leave-secret-0123456789";

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aWorkerWhoseCoordinatorLeftStopsItsPoolThreads() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-leave-" + ports[0];
        PoolThreads pool = PoolThreads.since("cluster-worker-0");
        HazelcastWorker worker = started.add(HazelcastWorker.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 2));
        CountDownLatch down = new CountDownLatch(1);
        worker.onMemberShutdown(down::countDown);
        HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60));
        try {
            assertThat(coordinator.client().submit("one", in -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(pool.started()).as("the worker's pool threads while it serves").isNotEmpty();
        } finally {
            coordinator.close();
        }
        assertThat(down.await(60, TimeUnit.SECONDS)).as("the worker's member shut down").isTrue();
        assertThat(worker.coordinatorLost()).isTrue();

        assertThat(pool.lingeringAfter(Duration.ofSeconds(20)))
                .as("pool threads of a worker whose member left the cluster (close() not called)").isEmpty();
        worker.close();                       // still safe, and a no-op
        worker.close();
    }
}
