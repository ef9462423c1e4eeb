/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor whose end the system could not count ({@code ActorSystem.actorEnded} failing at its
 * entry, a {@code StackOverflowError} deep in a stack, made here by the test hook) stayed in the
 * system's set of actors for good: the counts were right (it is counted from its lifecycle), but
 * every such actor's cell, mailbox stub and name stayed reachable from the system, and every
 * {@code stats()} and {@code deepestMailboxes} walked it, for the system's life. The next actor's
 * end or the next spawn now takes it out, and its processed messages into the total, once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnActorWhoseEndWasNotCountedLeavesTheSetLaterTest {

    @AfterEach
    void clearHooks() {
        ActorSystem.actorEndedHook = null;
    }

    private static void failTheNextCount() {
        StackOverflowError overflow = new StackOverflowError("made by the test");
        ActorSystem.actorEndedHook = () -> {
            ActorSystem.actorEndedHook = null;     // once
            throw overflow;
        };
    }

    @Test
    void theNextActorsEndTakesItOut() {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            ActorRef<int[]> other = system.spawn(() -> new int[1]);
            for (int i = 0; i < 3; i++) {
                ref.tell(x -> x[0]++);
            }
            other.tell(x -> x[0]++);
            failTheNextCount();
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(reported).as("the count's failure, reported").hasSize(1);
            assertThat(system.actorsInTheSet()).as("the uncounted actor, still in the set").isEqualTo(2);

            assertThat(other.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.actorsInTheSet()).as("both gone once the next actor ended").isZero();
            ActorSystemStats stats = system.stats();
            assertThat(stats.liveActors()).isZero();
            assertThat(stats.messagesProcessed()).as("each actor's messages counted once").isEqualTo(4);
        }
    }

    @Test
    void theNextSpawnTakesItOut() {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            ref.tell(x -> x[0]++);
            ref.tell(x -> x[0]++);
            failTheNextCount();
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(reported).hasSize(1);
            assertThat(system.actorsInTheSet()).isEqualTo(1);

            ActorRef<int[]> next = system.spawn(() -> new int[1]);
            assertThat(system.actorsInTheSet()).as("only the new actor").isEqualTo(1);
            assertThat(next.ask(x -> ++x[0])).succeedsWithin(Duration.ofSeconds(20)).isEqualTo(1);
            ActorSystemStats stats = system.stats();
            assertThat(stats.liveActors()).isEqualTo(1);
            assertThat(stats.messagesProcessed()).as("the ended actor's 2 and the ask, once each").isEqualTo(3);
            assertThat(next.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.actorsInTheSet()).isZero();
            assertThat(system.stats().messagesProcessed()).isEqualTo(3);
        }
    }
}
