/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code stats()} read each actor's processed count and then its lifecycle. An actor that processed
 * a message and ended between the two reads, its end not yet begun in the system's counters
 * (the ending actor is between its lifecycle's store and {@code actorEnded}), was read with the
 * count from before that message and as not live: the snapshot said no actor was live with a total
 * short by that message, although every message had been processed (found by
 * {@code ASnapshotWithNoActorLiveHasTheExactCountTest}'s churn, looped in one JVM: 794 for 795).
 * Here the walk's seam has the actor take a message and its stop between the two reads, and the
 * end is held before it is counted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnActorEndingDuringTheSnapshotsWalkIsCountedLiveTest {

    @AfterEach
    void clearHooks() {
        ActorSystem.snapshotWalkHook = null;
        ActorSystem.actorEndedHook = null;
    }

    @Test
    void aSnapshotThatSaysNoActorIsLiveHasTheExactTotal() throws Exception {
        CountDownLatch atTheEnd = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (ActorSystem system = ActorSystem.create()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            assertThat(ref.ask(x -> x[0])).succeedsWithin(Duration.ofSeconds(20)).isEqualTo(0);
            ActorSystem.actorEndedHook = () -> {
                ActorSystem.actorEndedHook = null;      // once: held before its end is counted
                atTheEnd.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            AtomicReference<CompletableFuture<Void>> stop = new AtomicReference<>();
            ActorSystem.snapshotWalkHook = cell -> {
                ActorSystem.snapshotWalkHook = null;    // once: the walk's only actor
                ref.tell(x -> x[0]++);
                stop.set(ref.stop());
                try {
                    assertThat(atTheEnd.await(20, TimeUnit.SECONDS)).as("the actor ended").isTrue();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            };
            ActorSystemStats during;
            try {
                during = system.stats();
            } finally {
                release.countDown();
            }
            assertThat(stop.get()).as("the walk reached the actor").isNotNull();
            assertThat(during.messagesProcessed()).as("the total never exceeds the true one").isLessThanOrEqualTo(2);
            assertThat(during.liveActors() == 0 && during.messagesProcessed() != 2)
                    .as("a snapshot saying no actor is live with a short total: %s", during)
                    .isFalse();
            assertThat(stop.get()).succeedsWithin(Duration.ofSeconds(20));
            ActorSystemStats after = system.stats();
            assertThat(after.liveActors()).isZero();
            assertThat(after.messagesProcessed()).as("an ask and a tell").isEqualTo(2);
        }
    }
}
