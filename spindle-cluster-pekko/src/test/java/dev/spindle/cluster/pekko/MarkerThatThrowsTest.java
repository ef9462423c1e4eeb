/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.Cleanup;
import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The idle markers run on Pekko's scheduler with a fixed delay, which schedules the next run only
 * once a run returns: a marker that threw an Error (the transports' marks caught only runtime
 * exceptions) ended the markers of its side for good. From then on the loss of a link's last frame
 * (a task frame to a worker, a worker's report) was seen by nobody: the task or its result was
 * lost silently, and its future waited for good. A marker that throws now is logged, and the next
 * one goes out. The Error is injected through the transports' hooks; the loss is played by the
 * sender's {@link Outbox}, as in {@link FrameLostInTransitTest}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MarkerThatThrowsTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @AfterEach
    void resetHooks() {
        CoordinatorTransport.beforeMarkForTests = () -> { };
        WorkerTransport.beforeMarkForTests = () -> { };
    }

    @Test
    void aTaskFrameLostAfterACoordinatorsMarkerThrewIsStillSeen() throws Exception {
        OneWorkerCluster c = started(OneWorkerCluster.start(started, "marker-throws-coordinator", 2));
        CountDownLatch threw = new CountDownLatch(1);
        CoordinatorTransport.beforeMarkForTests = throwOnce(threw);
        assertThat(threw.await(60, TimeUnit.SECONDS)).as("a marker of the coordinator ran and threw").isTrue();

        outbox(c.coordinator()).loseNextSendForTests();
        c.coordinator().client().submit("two", in -> 2);       // its task frame is lost, and nothing else follows

        assertThat(eventually(() -> c.worker().coordinatorLost()))
                .as("the worker, whose coordinator's later marker shows the gap, counts the coordinator gone").isTrue();
    }

    @Test
    void aReportLostAfterAWorkersMarkerThrewIsStillSeen() throws Exception {
        OneWorkerCluster c = started(OneWorkerCluster.start(started, "marker-throws-worker", 2));
        CountDownLatch threw = new CountDownLatch(1);
        WorkerTransport.beforeMarkForTests = throwOnce(threw);
        assertThat(threw.await(60, TimeUnit.SECONDS)).as("a marker of the worker ran and threw").isTrue();

        c.worker().outboxForTests().loseNextSendForTests();
        c.coordinator().client().submit("two", in -> 2);       // its report is lost, and nothing else follows

        assertThat(eventually(() -> c.coordinator().isLost(0)))
                .as("worker 0, whose later marker shows the gap, is handled as lost").isTrue();
    }

    /** A hook that throws an Error the first time it runs, then lets the markers run. */
    private static Runnable throwOnce(CountDownLatch threw) {
        AtomicBoolean once = new AtomicBoolean();
        return () -> {
            if (once.compareAndSet(false, true)) {
                threw.countDown();
                throw new AssertionError("a marker that throws an Error");
            }
        };
    }

    /**
     * Runs a task, then lets two rounds of markers of each side go out with every frame delivered
     * (see FrameLostInTransitTest).
     */
    private static OneWorkerCluster started(OneWorkerCluster c) throws Exception {
        assertThat(c.coordinator().client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        c.awaitMarkerRounds(2);
        assertThat(c.coordinator().isLost(0)).as("a worker whose frames all arrived").isFalse();
        assertThat(c.worker().coordinatorLost()).as("a coordinator whose frames all arrived").isFalse();
        return c;
    }

    private static Outbox outbox(PekkoCoordinator coordinator) throws Exception {
        Field f = PekkoCoordinator.class.getDeclaredField("outbox");
        f.setAccessible(true);
        return (Outbox) f.get(coordinator);
    }

    /** Whether {@code condition} holds within 30 s. */
    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
