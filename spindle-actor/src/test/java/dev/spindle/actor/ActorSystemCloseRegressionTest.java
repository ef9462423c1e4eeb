/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review (session 28) of the lifecycle under races: closing an actor system
 * while messages are in flight. Each test failed on the code before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorSystemCloseRegressionTest {

    static final class Counter {
        int n;
    }

    /**
     * close() closed an owned scheduler with the pool's own close(), which answers an interrupt
     * with shutdownNow() and drops the activations it returns. Every actor whose activation was
     * still queued then never ran again: its asks never completed and its tells were neither
     * processed nor dead letters, although the actors promise that every message is delivered
     * or rejected exactly once.
     */
    @Test
    void anInterruptedCloseOfAnOwnedSchedulerFailsTheAsksOfActorsThatHadNotRun() throws Exception {
        ActorSystem system = ActorSystem.builder().name("interrupted-close").failureHandler((a, e) -> { }).build();
        int workers = Runtime.getRuntime().availableProcessors();   // the owned pool's size
        CountDownLatch busy = new CountDownLatch(workers);
        CountDownLatch interrupted = new CountDownLatch(workers);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < workers; i++) {
            system.spawn(Counter::new).tell(c -> {
                busy.countDown();
                for (;;) {
                    try {
                        if (release.await(30, TimeUnit.SECONDS)) {
                            return;
                        }
                    } catch (InterruptedException e) {
                        interrupted.countDown();    // shutdownNow's: keep the worker until released
                    }
                }
            });
        }
        assertThat(busy.await(10, TimeUnit.SECONDS)).as("every worker holds a blocked actor").isTrue();
        int actors = 20;
        AtomicInteger processed = new AtomicInteger();
        List<CompletableFuture<Integer>> asks = new ArrayList<>();
        for (int i = 0; i < actors; i++) {
            ActorRef<Counter> a = system.spawn(Counter::new);
            a.tell(c -> processed.incrementAndGet());
            asks.add(a.ask(c -> ++c.n));       // its activation waits in the pool's queue
        }
        Thread closer = new Thread(system::close, "closer");
        closer.start();
        TestSchedulers.awaitCondition("close under way", system::isClosed);
        closer.interrupt();                    // close() stops the pool: shutdownNow
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the pool was stopped").isTrue();
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closer.isAlive()).as("close() returned").isFalse();
        assertThat(((ExecutorService) system.scheduler()).isTerminated()).isTrue();

        long stranded = asks.stream().filter(f -> !f.isDone()).count();
        assertThat(stranded).as("asks neither answered nor failed once close() returned").isZero();
        for (CompletableFuture<Integer> f : asks) {
            try {
                f.get();
                processed.incrementAndGet();   // answered: the pool ran the activation after all
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(ActorStoppedException.class);
            }
        }
        assertThat(processed.get() + system.stats().deadLetters())
                .as("every tell and ask processed or a dead letter").isEqualTo(2L * actors);
        assertThat(system.stats().liveActors()).as("live actors").isZero();
    }

    /**
     * The fix above closes the owned scheduler itself rather than through the pool's close(),
     * so it must tell an actor's thread apart as close() did: called from an actor, close() only
     * shuts the pool down (the pool cannot terminate while the actor's message runs) and returns.
     */
    @Test
    void closeCalledFromAnActorOnlyShutsTheOwnedSchedulerDown() throws Exception {
        ActorSystem system = ActorSystem.builder().name("closed-from-inside").build();
        ActorRef<Counter> a = system.spawn(Counter::new);
        CompletableFuture<String> inside = a.ask(c -> {
            system.close();
            return "close() returned on the actor's thread";
        });
        assertThat(inside.get(10, TimeUnit.SECONDS)).isEqualTo("close() returned on the actor's thread");
        assertThat(((ExecutorService) system.scheduler()).awaitTermination(10, TimeUnit.SECONDS))
                .as("the owned scheduler terminated once the actor's message returned").isTrue();
        assertThat(a.isStopped()).isTrue();
        system.close();                        // from outside now: returns at once
    }
}
