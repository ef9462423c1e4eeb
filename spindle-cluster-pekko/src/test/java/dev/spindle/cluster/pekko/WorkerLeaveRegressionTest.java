/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that leaves the cluster on its own (its coordinator left, or it was retired) has ended
 * for good: its member is down and nothing can reach its pool any more. Its pool threads and held
 * values must go with it, not linger until someone calls {@link PekkoWorker#close()} on an object
 * that {@link PekkoWorker#terminated()} already reported as ended.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WorkerLeaveRegressionTest {

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aWorkerWhoseCoordinatorLeftStopsItsPoolThreads() throws Exception {
        Set<Thread> before = poolThreads();
        int[] ports = FreePorts.free(2);
        String cluster = "departed";
        PekkoWorker worker = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build(), 0, 3));
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(3).build(), Duration.ofSeconds(60)));
        assertThat(coordinator.client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(newThreads(before)).as("the worker's pool threads while it serves").isNotEmpty();

        coordinator.close();
        worker.terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);

        // exiting takes a moment after the pool is stopped; the bound only catches threads that stay
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!newThreads(before).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(newThreads(before).stream().map(Thread::getName).collect(Collectors.toList()))
                .as("pool threads of a worker that left the cluster (terminated() completed, close() not called)")
                .isEmpty();
    }

    private static Set<Thread> newThreads(Set<Thread> before) {
        Set<Thread> now = poolThreads();
        now.removeAll(before);
        return now;
    }

    private static Set<Thread> poolThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("cluster-worker-0"))
                .collect(Collectors.toSet());
    }
}
