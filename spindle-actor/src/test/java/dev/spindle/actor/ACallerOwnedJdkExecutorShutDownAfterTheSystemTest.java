/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A system on a JDK {@link ThreadPoolExecutor} the caller owns, closed as {@link ActorSystem} says
 * (the system, then the executor). Unlike Spindle's pools, a shut-down {@code ThreadPoolExecutor}
 * refuses the tasks its own threads submit, so an actor that hands itself back after a full
 * activation is refused then: the messages still queued ahead of the close's stop are not
 * processed. They are dead letters, counted, and the asks among them fail with
 * {@link ActorStoppedException} caused by the refusal, none lost; waiting for the actors' stops
 * before shutting the executor down has them processed. ({@code ActorSystem}'s "Closing" says so;
 * it promised them processed on any scheduler.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ACallerOwnedJdkExecutorShutDownAfterTheSystemTest {

    private static final int QUEUED = 10;

    @Test
    void messagesQueuedBeforeTheCloseAreDeadLettersCountedWhenTheExecutorIsShutDownAtOnce() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try {
            ActorSystem system = ActorSystem.create((Scheduler) executor::execute);
            ActorRef<Object> ref = system.spawn(Object::new,
                    ActorConfig.builder().name("one-per-turn").maxMessagesPerActivation(1).build());
            CountDownLatch release = TestSchedulers.holdInATell(ref);
            AtomicInteger processed = new AtomicInteger();
            List<CompletableFuture<Integer>> asks = new ArrayList<>();
            for (int i = 0; i < QUEUED; i++) {
                if (i % 2 == 0) {
                    ref.tell(o -> processed.incrementAndGet());
                } else {
                    asks.add(ref.ask(o -> processed.incrementAndGet()));
                }
            }
            system.close();
            executor.shutdown();
            release.countDown();
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(30));

            assertThat(processed.get()).as("messages queued before the close that ran").isZero();
            assertThat(system.stats().deadLetters()).as("dead letters").isEqualTo(QUEUED);
            assertThat(system.stats().messagesProcessed()).as("processed: the holding message").isEqualTo(1);
            for (CompletableFuture<Integer> ask : asks) {
                assertThat(ask).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                        .havingCause().isInstanceOf(ActorStoppedException.class)
                        .withCauseInstanceOf(RejectedExecutionException.class);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void waitingForTheStopsBeforeTheShutdownHasThemProcessed() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try {
            ActorSystem system = ActorSystem.create((Scheduler) executor::execute);
            ActorRef<Object> ref = system.spawn(Object::new,
                    ActorConfig.builder().name("one-per-turn").maxMessagesPerActivation(1).build());
            CountDownLatch release = TestSchedulers.holdInATell(ref);
            AtomicInteger processed = new AtomicInteger();
            for (int i = 0; i < QUEUED; i++) {
                ref.tell(o -> processed.incrementAndGet());
            }
            system.close();
            CompletableFuture<Void> stopped = ref.stop();
            release.countDown();
            assertThat(stopped).succeedsWithin(Duration.ofSeconds(30));
            executor.shutdown();

            assertThat(processed.get()).as("messages queued before the close").isEqualTo(QUEUED);
            assertThat(system.stats().deadLetters()).isZero();
        } finally {
            executor.shutdownNow();
        }
    }
}
