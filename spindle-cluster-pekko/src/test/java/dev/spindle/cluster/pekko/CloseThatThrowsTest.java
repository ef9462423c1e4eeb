/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.PoolThreads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator whose scheduler's close throws (an Error, say an OutOfMemoryError) still stops
 * its actor system, in {@link PekkoCoordinator#close} as in the cleanup of a start that failed:
 * each close ran only if the one before returned, so the actor system stayed up, its port bound
 * and its threads running, and the failure of the close was all the caller saw of it. And a
 * worker's start that fails with an Error once its node has started stops the node and the
 * actor system: only an exception was caught there.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CloseThatThrowsTest {

    @AfterEach
    void clearSeams() {
        PekkoCoordinator.afterSchedulerStartForTests = () -> { };
        PekkoCoordinator.onSchedulerCloseForTests = () -> { };
        PekkoWorker.afterNodeStartForTests = () -> { };
    }

    @Test
    void aWorkerStartThatFailsWithAnErrorStopsTheNodeAndTheActorSystem() throws Exception {
        int port = FreePorts.free();
        PoolThreads pool = PoolThreads.since("cluster-worker-7");
        PekkoWorker.afterNodeStartForTests = () -> {
            throw new OutOfMemoryError("injected after the node started");
        };
        assertThatThrownBy(() -> PekkoWorker.start(TestCerts.settings("closethrows", "worker").port(port)
                .seedNode("127.0.0.1:" + FreePorts.free()).build(), 7, 2))
                .isInstanceOf(OutOfMemoryError.class);
        assertThat(pool.lingeringAfter(Duration.ofSeconds(10)))
                .as("the node's pool threads still running after start threw").isEmpty();
        assertThat(portFreedWithin(port, Duration.ofSeconds(20)))
                .as("the actor system's port still bound after start threw").isTrue();
    }

    @Test
    void aStartThatFailsBeforeTheCoordinatorExistsStopsTheActorSystemThoughTheSchedulerCloseThrows() throws Exception {
        int port = FreePorts.free();
        PekkoCoordinator.afterSchedulerStartForTests = () -> {
            throw new OutOfMemoryError("injected after the scheduler started");
        };
        PekkoCoordinator.onSchedulerCloseForTests = () -> {
            throw new OutOfMemoryError("injected in the scheduler's close");
        };
        assertThatThrownBy(() -> PekkoCoordinator.start(TestCerts.settings("closethrows", "coordinator").port(port)
                .build(), CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(30)))
                .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("after the scheduler started")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
                        .anyMatch(m -> m.contains("in the scheduler's close")));
        assertThat(portFreedWithin(port, Duration.ofSeconds(20)))
                .as("the actor system's port still bound after start threw").isTrue();
    }

    @Test
    void aStartThatTimesOutStopsTheActorSystemThoughTheSchedulerCloseThrows() throws Exception {
        int port = FreePorts.free();
        PekkoCoordinator.onSchedulerCloseForTests = () -> {
            throw new OutOfMemoryError("injected in the scheduler's close");
        };
        // no worker joins: the coordinator exists when the wait times out, and start closes it
        assertThatThrownBy(() -> PekkoCoordinator.start(TestCerts.settings("closethrows", "coordinator").port(port)
                .build(), CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(2)))
                .isInstanceOf(TimeoutException.class)
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
                        .anyMatch(m -> m.contains("in the scheduler's close")));
        assertThat(portFreedWithin(port, Duration.ofSeconds(20)))
                .as("the actor system's port still bound after close threw").isTrue();
    }

    /** Whether {@code port} can be bound on loopback within {@code bound} (the system stops asynchronously). */
    private static boolean portFreedWithin(int port, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                return true;
            } catch (IOException stillBound) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(100);
            }
        }
    }
}
