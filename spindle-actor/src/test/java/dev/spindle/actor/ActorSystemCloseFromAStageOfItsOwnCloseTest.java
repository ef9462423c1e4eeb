/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An interrupted {@link ActorSystem#close()} of an owned scheduler fails, on the closing thread,
 * the asks of the actors whose activations the pool's {@code shutdownNow()} dropped, and so runs
 * their dependent stages there. A stage that closes the system (a common "close once the answer
 * is in") called {@code close()} again on that thread, which waited for every stopped actor to
 * end: among them the very actor whose ask this thread was still failing, so it waited for
 * itself, and neither {@code close()} ever returned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorSystemCloseFromAStageOfItsOwnCloseTest {

    static final class Counter {
        int n;
    }

    @Test
    void aStageOfAnAskAnInterruptedCloseFailsMayCloseTheSystemAgain() throws Exception {
        ActorSystem.Builder builder = ActorSystem.builder().name("close-in-a-stage").failureHandler((a, e) -> { });
        builder.ownScheduler = name -> WorkSharingPool.builder().name("spindle-" + name).workers(1).build();
        ActorSystem system = builder.build();
        CountDownLatch release = TestSchedulers.holdInATell(system.spawn(Counter::new));  // the one worker
        ActorRef<Counter> waiting = system.spawn(Counter::new);
        CompletableFuture<Integer> ask = waiting.ask(c -> ++c.n);   // its activation waits in the queue
        CountDownLatch secondCloseReturned = new CountDownLatch(1);
        ask.whenComplete((v, t) -> {
            system.close();
            secondCloseReturned.countDown();
        });

        Thread closer = new Thread(() -> {
            Thread.currentThread().interrupt();   // close() then stops the pool: shutdownNow
            system.close();
        }, "closer");
        closer.setDaemon(true);                   // left waiting for itself before the fix
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        release.countDown();

        assertThat(closer.isAlive()).as("close() returned").isFalse();
        assertThat(secondCloseReturned.await(10, TimeUnit.SECONDS)).as("the stage's close() returned").isTrue();
        try {
            ask.get(10, TimeUnit.SECONDS);
            Assertions.fail("the ask of an actor whose activation was dropped was answered");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ActorStoppedException.class);
        }
        assertThat(waiting.isStopped()).isTrue();
        assertThat(((ExecutorService) system.scheduler()).awaitTermination(10, TimeUnit.SECONDS))
                .as("the owned scheduler terminated").isTrue();
        assertThat(system.stats().liveActors()).as("live actors").isZero();
    }
}
