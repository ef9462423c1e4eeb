/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.Cleanup;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSelectionMessage;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.Dropped;
import org.apache.pekko.actor.SelectionPathElement;
import org.apache.pekko.cluster.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Artery delivers at most once: when its outbound queue to a member is full (3,072 messages by
 * default, under sustained congestion) it drops the message and publishes {@link Dropped} on the
 * event stream, and that is all. A frame of the coordinator to a worker (a task) or of a worker to
 * the coordinator (a result) lost so left the task waited for in vain, the member still in the
 * cluster, nobody told. A drop of one of Spindle's frames must have the peer handled as lost. The
 * drop is played by publishing the event Artery publishes for it (Artery's own, for a frame sent
 * through an actor selection: the sender is the member's endpoint, the recipient the peer's).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DroppedFrameLossTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aFrameToAWorkerDroppedByArteryHasTheWorkerHandledAsLost() throws Exception {
        OneWorkerCluster c = OneWorkerCluster.start(started, "dropped-task", 2);
        assertThat(c.coordinator().client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        dropFrame(c.coordinator().systemForTests(), address(workerSystem(c.worker())));

        assertThat(eventually(() -> c.coordinator().isLost(0)))
                .as("worker 0, a frame to which was dropped, is handled as lost").isTrue();
        c.worker().terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // downed
    }

    @Test
    void aFrameToTheCoordinatorDroppedByArteryHasTheWorkerLeave() throws Exception {
        OneWorkerCluster c = OneWorkerCluster.start(started, "dropped-result", 2);
        assertThat(c.coordinator().client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);

        dropFrame(workerSystem(c.worker()), address(c.coordinator().systemForTests()));

        assertThat(eventually(() -> c.worker().coordinatorLost()))
                .as("the worker, a report of which to the coordinator was dropped, counts the coordinator gone").isTrue();
        c.worker().terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // it left the cluster
        assertThat(eventually(() -> c.coordinator().isLost(0))).as("the coordinator handles the worker as lost").isTrue();
    }

    /**
     * Publishes on {@code system}'s event stream what Artery publishes when its outbound queue to
     * {@code peer} is full and it drops a frame that {@code system}'s endpoint sent there.
     */
    private static void dropFrame(ActorSystem system, Address peer) throws Exception {
        ActorRef endpoint = system.actorSelection("/user/" + PekkoConfigs.ENDPOINT)
                .resolveOne(Duration.ofSeconds(30)).toCompletableFuture().get(60, TimeUnit.SECONDS);
        ActorRef peerEndpoint = system.actorSelection(peer + "/user/" + PekkoConfigs.ENDPOINT)
                .resolveOne(Duration.ofSeconds(30)).toCompletableFuture().get(60, TimeUnit.SECONDS);
        Object selected = new ActorSelectionMessage(new Wire.Encoded(new byte[16]),
                CollectionConverters.asScala(List.<SelectionPathElement>of()).toList(), false);
        system.getEventStream().publish(new Dropped(selected, "Due to overflow of send queue, size [3072]", endpoint,
                peerEndpoint));
    }

    private static Address address(ActorSystem member) {
        return Cluster.get(member).selfAddress();
    }

    private static ActorSystem workerSystem(PekkoWorker worker) throws Exception {
        Field f = PekkoWorker.class.getDeclaredField("system");
        f.setAccessible(true);
        return (ActorSystem) f.get(worker);
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
