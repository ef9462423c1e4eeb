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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A throwable in {@link PekkoCoordinator#start} once the scheduler has started, before the
 * coordinator exists (an Error, say an OutOfMemoryError): start stops what it started before it
 * throws. An Error escaped the catch, and left the actor system up, its port bound, and the
 * scheduler's threads running; an exception there stopped the actor system but not the scheduler.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StartFailureCleanupRegressionTest {

    @AfterEach
    void clearSeam() {
        PekkoCoordinator.afterSchedulerStartForTests = () -> { };
    }

    @Test
    void anErrorAfterTheSchedulerStartsStopsTheSchedulerAndTheActorSystem() throws Exception {
        int port = FreePorts.free();
        PoolThreads scheduler = PoolThreads.since("cluster-scheduler");
        PekkoCoordinator.afterSchedulerStartForTests = () -> {
            throw new OutOfMemoryError("injected after the scheduler started");
        };
        assertThatThrownBy(() -> PekkoCoordinator.start(TestCerts.settings("startfailure", "coordinator").port(port)
                .build(), CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(30)))
                .isInstanceOf(OutOfMemoryError.class);
        assertThat(scheduler.lingeringAfter(Duration.ofSeconds(10)))
                .as("scheduler threads still running after start threw").isEmpty();
        assertThat(portFreedWithin(port, Duration.ofSeconds(15)))
                .as("the actor system's port still bound after start threw").isTrue();
    }

    /** Whether {@code port} can be bound on loopback within {@code bound} (the system stops asynchronously). */
    private static boolean portFreedWithin(int port, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                return true;
            } catch (IOException bound_) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(100);
            }
        }
    }
}
