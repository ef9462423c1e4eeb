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
 * An actor's end is counted by the system ({@code ActorSystem.actorEnded}, called by the cell
 * once its lifecycle has left RUNNING). That call can fail: a {@code StackOverflowError} at its
 * entry when the actor ends deep in a stack (a spawn that fails there, a sender whose
 * {@code schedule} finds the actor ended), an {@code OutOfMemoryError} on the way. The cell reports
 * it and goes on ending the actor, but the count of live actors was taken back only at the call's
 * last step: the system said one actor too many for good. Made here by the test hooks, once each.
 * The live actors are now counted from the lifecycle, whose store is the end's point of no return.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnActorWhoseEndCannotBeCountedLeavesTheCountsRightTest {

    @AfterEach
    void clearHooks() {
        ActorSystem.actorEndedHook = null;
        ActorSystem.endedCountHook = null;
        ActorSystem.bracketEndHook = null;
    }

    /**
     * An overflow at the call's entry: nothing of it done. The actor, ended, counts as live no
     * more, and its messages stay counted as processed.
     */
    @Test
    void anOverflowAtTheCallLeavesNoActorCountedLive() {
        StackOverflowError overflow = new StackOverflowError("made by the test");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            ActorRef<int[]> other = system.spawn(() -> new int[1]);
            for (int i = 0; i < 3; i++) {
                ref.tell(x -> x[0]++);
            }
            ActorSystem.actorEndedHook = () -> {
                ActorSystem.actorEndedHook = null;     // once
                throw overflow;
            };
            assertThat(ref.stop()).as("the stop").succeedsWithin(Duration.ofSeconds(20));

            assertThat(reported).as("what the count threw, reported").containsExactly(overflow);
            assertThat(system.stats().liveActors()).as("live actors once one of two has ended").isEqualTo(1);
            assertThat(system.stats().messagesProcessed()).as("messages processed").isEqualTo(3);
            assertThat(other.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.stats().liveActors()).as("live actors once both have ended").isZero();
            assertThat(system.stats().messagesProcessed()).isEqualTo(3);
        }
    }

    /**
     * A failure as the ended actor's processed messages join the system's total (an
     * {@code OutOfMemoryError} in the add, or an overflow at its entry: the CI's stack-limit test
     * saw it, an actor's 51,167 messages gone from the total, which read 0). The actor had already
     * left the system's set, so its messages were counted nowhere, for good: a total short by a
     * whole actor's work. The end now claims the count on the cell before the add and gives it back
     * if the add throws: the cell stays in the set, counted from itself, and the next spawn moves it.
     */
    @Test
    void aFailureOnTheWayLeavesTheCountsExact() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space (made by the test)");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            ref.tell(x -> x[0]++);
            ref.tell(x -> x[0]++);
            ActorSystem.endedCountHook = () -> {
                ActorSystem.endedCountHook = null;     // once
                throw oom;
            };
            assertThat(ref.stop()).as("the stop").succeedsWithin(Duration.ofSeconds(20));

            assertThat(reported).as("what the count threw, reported").containsExactly(oom);
            ActorSystemStats stats = system.stats();
            assertThat(stats.liveActors()).as("live actors once the only one has ended").isZero();
            assertThat(stats.messagesProcessed()).as("the ended actor's messages").isEqualTo(2);

            ActorRef<int[]> next = system.spawn(() -> new int[1]);
            assertThat(next.ask(x -> ++x[0])).succeedsWithin(Duration.ofSeconds(20)).isEqualTo(1);
            assertThat(system.actorsInTheSet()).as("the ended actor, taken out by the next spawn").isEqualTo(1);
            stats = system.stats();
            assertThat(stats.liveActors()).as("live actors after the next spawn").isEqualTo(1);
            assertThat(stats.messagesProcessed()).as("counted once").isEqualTo(3);
            assertThat(next.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.actorsInTheSet()).isZero();
            assertThat(system.stats().messagesProcessed()).isEqualTo(3);
        }
    }

    /**
     * Both at once, as the stack-limit test saw them: the add fails, and then the close of the
     * ends' bracket in the {@code finally} after it. With nothing ending or spawning afterwards,
     * the system read one actor live and none of its messages processed, for good.
     */
    @Test
    void aFailedAddAndAFailedCloseLeaveAnIdleSystemExact() {
        StackOverflowError overflow = new StackOverflowError("made by the test");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            for (int i = 0; i < 5; i++) {
                ref.tell(x -> x[0]++);
            }
            ActorSystem.endedCountHook = () -> {
                ActorSystem.endedCountHook = null;     // once
                throw overflow;
            };
            ActorSystem.bracketEndHook = () -> {
                ActorSystem.bracketEndHook = null;     // once
                throw overflow;
            };
            assertThat(ref.stop()).as("the stop").succeedsWithin(Duration.ofSeconds(20));

            assertThat(reported).as("what the count threw, reported").containsExactly(overflow);
            ActorSystemStats stats = system.stats();
            assertThat(stats.liveActors()).as("live actors, nothing having ended or spawned since").isZero();
            assertThat(stats.messagesProcessed()).as("the ended actor's messages").isEqualTo(5);
        }
    }
}
