/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Between the factory's return and the actor's start, spawn counts the actor live and adds it to
 * the system's set, while the spawning thread still holds the actor's activation. Something
 * thrown there (an {@code OutOfMemoryError} adding the cell to the set, made here by
 * {@link ActorSystem#spawnRegistrationHook}) left the actor counted live for good (the system's
 * stats said one actor too many, and it was in no set that {@code close()} stops), still held:
 * the factory's ask to itself was never answered, its stop never completed. The actor now ends as
 * one whose factory failed: the count is taken back, the factory's messages are rejected, and
 * spawn throws what was thrown.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpawnThatFailsAfterItsFactoryKeepsTheCountsTest {

    @AfterEach
    void clearHook() {
        ActorSystem.spawnRegistrationHook = null;
    }

    @Test
    void aFailureAfterTheFactoryEndsTheActorAndTakesBackItsCount() throws Exception {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space (made by the test)");
        AtomicReference<ActorRef<int[]>> self = new AtomicReference<>();
        AtomicReference<CompletableFuture<Integer>> ask = new AtomicReference<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> { }).build()) {
            ActorSystem.spawnRegistrationHook = () -> {
                ActorSystem.spawnRegistrationHook = null;     // once
                throw oom;
            };
            Throwable thrown = catchThrowable(() -> system.<int[]>spawnWithSelf(r -> {
                self.set(r);
                ask.set(r.ask(x -> ++x[0]));                  // processed once the factory returned
                return new int[1];
            }, ActorConfig.builder().name("half-spawned").build()));

            assertThat(thrown).as("what spawn threw").isSameAs(oom);
            assertThat(system.stats().liveActors()).as("live actors after the failed spawn").isZero();
            assertThat(ask.get()).as("the factory's ask").failsWithin(Duration.ofSeconds(20))
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(ActorStoppedException.class);
            ActorRef<int[]> ref = self.get();
            assertThat(ref.isStopped()).isTrue();
            assertThat(ref.stop()).as("its stop").succeedsWithin(Duration.ofSeconds(20));
            ref.tell(x -> x[0]++);
            assertThat(system.stats().deadLetters()).as("the ask and the later tell").isEqualTo(2);

            ActorRef<int[]> next = system.spawn(() -> new int[1]);
            assertThat(next.ask(x -> ++x[0])).as("the next spawn").succeedsWithin(Duration.ofSeconds(20))
                    .isEqualTo(1);
            assertThat(system.stats().liveActors()).isEqualTo(1);
        }
    }
}
