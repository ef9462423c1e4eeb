/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker whose close throws once its node has stopped (an Error, say an OutOfMemoryError from
 * its pool's shutdown) still leaves the cluster. {@link HazelcastWorker#close} shut the member down
 * only if the node's close returned: when it threw, the member stayed in the cluster with its
 * Spindle worker stopped, the frames sent to it were delivered and dropped there (a stopped worker
 * takes nothing), and nothing told the coordinator, which learns of a lost worker only from
 * membership or a failed frame. The tasks placed on it, the one it was running included, were
 * never placed again and their callers waited for good.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerCloseThatThrowsTest {

    private static final String SECRET = "worker-close-throws-secret-0123456789";
    /** Counted down by the held task once it runs on worker 0, whose close is to throw. */
    private static final CountDownLatch HELD_ON_0 = new CountDownLatch(1);

    @AfterEach
    void clearSeam() {
        HazelcastWorker.afterNodeCloseForTests = () -> { };
    }

    /** Waits on worker 0 (until its stop interrupts it); returns where it ran elsewhere. */
    private static String holdOnWorker0() throws InterruptedException {
        String thread = Thread.currentThread().getName();
        if (thread.startsWith("cluster-worker-0-")) {
            HELD_ON_0.countDown();
            Thread.sleep(TimeUnit.MINUTES.toMillis(10));
        }
        return thread.startsWith("cluster-worker-1-") ? "ran on worker 1" : "ran on " + thread;
    }

    @Test
    void aWorkerWhoseCloseThrowsLeavesTheClusterAndItsRunningTaskIsPlacedAgain() throws Exception {
        int[] ports = FreePorts.free(3);
        String cluster = "spindle-close-throws-" + ports[0];
        HazelcastWorker w0 = HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports)
                .build(), 0, 1);
        HazelcastWorker w1 = null;
        try {
            w1 = HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[2], ports).build(), 1, 1);
            try (HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                    CoordinatorSettings.builder().workers(2).threadsPerWorker(1).build(), Duration.ofSeconds(60))) {
                ClusterFuture<String> held = coordinator.client().submit(TaskSpec.builder("held",
                        in -> holdOnWorker0()).restrictions(Restrictions.loose(Set.of(0))).build());
                assertThat(HELD_ON_0.await(60, TimeUnit.SECONDS)).as("the held task started on worker 0").isTrue();

                HazelcastWorker.afterNodeCloseForTests = () -> {
                    throw new OutOfMemoryError("injected in the node's close");
                };
                assertThatThrownBy(w0::close).isInstanceOf(OutOfMemoryError.class)
                        .hasMessageContaining("injected in the node's close");
                HazelcastWorker.afterNodeCloseForTests = () -> { };

                // generous: the coordinator hears of the member's leaving at once; before the fix
                // this timed out, the member up with its worker stopped and the task never placed again
                assertThat(held.get(60, TimeUnit.SECONDS)).as("the task held on the closed worker")
                        .isEqualTo("ran on worker 1");
                assertThat(coordinator.isLost(0)).as("worker 0 lost at the coordinator").isTrue();
                assertThat(w0.isRunning()).as("worker 0's member").isFalse();
            }
        } finally {
            HazelcastWorker.afterNodeCloseForTests = () -> { };
            if (w1 != null) {
                w1.close();
            }
            w0.close();                        // without the fix its member would still run here
        }
    }
}
