/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ask has no timeout of its own: the caller bounds its wait ({@code get(timeout)}) or gives the
 * future one ({@code orTimeout}). What {@link ActorRef#ask} says then: the future fails with
 * {@link TimeoutException} (given one) and keeps that failure; the function still runs in its
 * turn, once, and is counted as processed, not as a dead letter, its result dropped; a bounded wait
 * that times out leaves the future to complete with the result. Nothing is lost unseen: the
 * counts add up, and a stage sees the timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnAskThatTimesOutIsStillProcessedAndCountedTest {

    @Test
    void aFutureGivenATimeoutFailsWithItAndTheFunctionStillRunsOnceCountedAsProcessed() throws Exception {
        try (ActorSystem system = ActorSystem.create()) {
            ActorRef<AtomicInteger> ref = system.spawn(AtomicInteger::new);
            CountDownLatch release = TestSchedulers.holdInATell(ref);
            CompletableFuture<Integer> asked = ref.ask(AtomicInteger::incrementAndGet).orTimeout(1, TimeUnit.MILLISECONDS);
            CompletableFuture<String> stage = asked.handle((v, t) -> t == null ? "value " + v : t.getClass().getSimpleName());

            assertThat(stage).as("a stage sees the timeout").succeedsWithin(Duration.ofSeconds(30))
                    .isEqualTo("TimeoutException");
            release.countDown();
            assertThat(ref.ask(AtomicInteger::get)).as("the timed-out function ran, once")
                    .succeedsWithin(Duration.ofSeconds(30)).isEqualTo(1);
            assertThatThrownBy(() -> asked.get(0, TimeUnit.SECONDS)).as("the future keeps its timeout")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
            ActorSystemStats stats = system.stats();
            assertThat(stats.messagesProcessed()).as("the holder, the timed-out ask and the last ask").isEqualTo(3);
            assertThat(stats.deadLetters()).as("dead letters").isZero();
        }
    }

    @Test
    void aBoundedWaitThatTimesOutLeavesTheFutureToCompleteWithTheResult() throws Exception {
        try (ActorSystem system = ActorSystem.create()) {
            ActorRef<AtomicInteger> ref = system.spawn(AtomicInteger::new);
            CountDownLatch release = TestSchedulers.holdInATell(ref);
            CompletableFuture<Integer> asked = ref.ask(AtomicInteger::incrementAndGet);

            assertThatThrownBy(() -> asked.get(1, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
            release.countDown();
            assertThat(asked).as("the reply, after the wait gave up").succeedsWithin(Duration.ofSeconds(30)).isEqualTo(1);
            assertThat(system.stats().deadLetters()).isZero();
        }
    }
}
