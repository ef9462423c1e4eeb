/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker whose member leaves the cluster on its own (its coordinator left, or it was retired)
 * has ended for good: nothing can reach its pool or its store any more. Its pool threads and held
 * values must go when its member shuts down, not linger until someone calls
 * {@link HazelcastWorker#close()}, which must stay safe to call afterwards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerLeaveRegressionTest {

    private static final String SECRET = "worker-leave-secret-0123456789";
    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aWorkerWhoseCoordinatorLeftStopsItsPoolThreads() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-leave-" + ports[0];
        String prefix = "cluster-worker-0";
        Set<Thread> before = poolThreads(prefix);
        HazelcastWorker worker = started.add(HazelcastWorker.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 2));
        CountDownLatch down = new CountDownLatch(1);
        worker.onMemberShutdown(down::countDown);
        HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(2).build(), Duration.ofSeconds(60));
        try {
            assertThat(coordinator.client().submit("one", in -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(newThreads(prefix, before)).as("the worker's pool threads while it serves").isNotEmpty();
        } finally {
            coordinator.close();
        }
        assertThat(down.await(60, TimeUnit.SECONDS)).as("the worker's member shut down").isTrue();
        assertThat(worker.coordinatorLost()).isTrue();

        // exiting takes a moment once the pool is stopped; the bound only catches threads that stay
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!newThreads(prefix, before).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<String> left = newThreads(prefix, before).stream().map(Thread::getName).sorted().collect(Collectors.toList());
        assertThat(left).as("pool threads of a worker whose member left the cluster (close() not called)").isEmpty();
        worker.close();                       // still safe, and a no-op
        worker.close();
    }

    private static Set<Thread> newThreads(String prefix, Set<Thread> before) {
        Set<Thread> now = poolThreads(prefix);
        now.removeAll(before);
        return now;
    }

    private static Set<Thread> poolThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .collect(Collectors.toSet());
    }
}
