/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.Cleanup;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Artery delivers ordinary messages at most once: when the TCP connection under a link fails and
 * its outbound stream restarts, the frames in the stream's buffers are gone, with no quarantine
 * and no event, while both members stay in the cluster. A task frame to a worker or a report to
 * the coordinator lost so left the task waited for in vain. The frames of each link are numbered
 * now, and a gap has the peer handled as lost; an idle marker shows the loss of a link's last
 * frame. The loss is played by the sender's {@link Outbox} encoding a frame (which takes its
 * number) and not handing it to Artery.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FrameLostInTransitTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aTaskFrameLostInTransitHasTheWorkerLeaveAndTheCoordinatorLoseIt() throws Exception {
        OneWorkerCluster c = started(OneWorkerCluster.start(started, "lost-task", 2));

        outbox(c.coordinator()).loseNextSendForTests();
        c.coordinator().client().submit("two", in -> 2);       // its task frame (or a marker before it) is lost

        assertThat(eventually(() -> c.worker().coordinatorLost()))
                .as("the worker, which missed a frame of its coordinator, counts the coordinator gone").isTrue();
        c.worker().terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // it left the cluster
        assertThat(eventually(() -> c.coordinator().isLost(0))).as("the coordinator handles the worker as lost").isTrue();
    }

    @Test
    void aReportLostInTransitHasTheCoordinatorLoseTheWorker() throws Exception {
        OneWorkerCluster c = started(OneWorkerCluster.start(started, "lost-report", 2));

        c.worker().outboxForTests().loseNextSendForTests();
        c.coordinator().client().submit("two", in -> 2);       // the worker's first report of it is lost

        assertThat(eventually(() -> c.coordinator().isLost(0)))
                .as("worker 0, a report of which was lost on the way, is handled as lost").isTrue();
        c.worker().terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // downed
    }

    /**
     * Runs a task, then lets two rounds of markers of each side go out: numbered frames and
     * markers in both directions must not be taken for a loss.
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
