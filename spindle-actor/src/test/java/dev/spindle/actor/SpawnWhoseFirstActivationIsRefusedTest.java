/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A factory that sends its actor messages makes spawn activate the actor once the factory has
 * returned. A scheduler whose {@code execute} throws an {@code Error} then (a pool that cannot
 * start a thread) refuses that activation as it would a sender's: the actor ends as rejected, its
 * messages are rejected, and the spawning thread gets the {@code Error}. Held: the activation is
 * not left claimed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpawnWhoseFirstActivationIsRefusedTest {

    @Test
    void anErrorFromTheFirstActivationEndsTheActorAndLeavesNothingHeld() {
        TestSchedulers.ErrorThenManual scheduler = new TestSchedulers.ErrorThenManual(1);
        AtomicReference<ActorRef<int[]>> self = new AtomicReference<>();
        AtomicReference<CompletableFuture<Integer>> ask = new AtomicReference<>();
        ActorSystem system = ActorSystem.builder().scheduler(scheduler).failureHandler((a, t) -> { }).build();
        Throwable thrown = catchThrowable(() -> system.<int[]>spawnWithSelf(r -> {
            self.set(r);
            r.tell(x -> x[0]++);
            ask.set(r.ask(x -> ++x[0]));
            return new int[1];
        }));

        assertThat(thrown).as("what spawn threw").isSameAs(scheduler.thrown.get(0));
        ActorCell<?> cell = (ActorCell<?>) self.get();
        assertThat(cell.lvState()).as("the activation, given up").isEqualTo(ActorCell.IDLE);
        assertThat(cell.isStopped()).isTrue();
        assertThat(ask.get()).isCompletedExceptionally();
        assertThat(cell.stop()).isDone();
        assertThat(system.stats().liveActors()).isZero();
        assertThat(system.stats().deadLetters()).as("the tell and the ask").isEqualTo(2);
        system.close();
    }
}
