/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Defects found by a review (session 30) that wrote inside actors what an ordinary Java
 * developer writes there, on every scheduler kind with one and two workers. Each test failed on
 * the code before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorIdiomsRegressionTest {

    static final class Worker {
        int handled;
    }

    /**
     * A message that caught an InterruptedException and restored the interrupt, as Java code is
     * taught to, left its thread interrupted, and the activation went on to the actor's next
     * message with the flag still set: that message, maybe another sender's, found its
     * {@code Thread.sleep} (or a {@code poll} with a timeout, or an interruptible channel) failing
     * although nobody had interrupted it, and only when the two messages happened to share an
     * activation. The pools drop such a stray interrupt between their tasks; an activation runs
     * many messages in one task, so the actor must not pass one on to the next message either.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void anInterruptOneMessageLeavesSetDoesNotReachTheNextMessage(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        try (ActorSystem system = ActorSystem.builder().scheduler((Scheduler) pool)
                .failureHandler((a, e) -> { }).build()) {
            ActorRef<Worker> actor = system.spawn(Worker::new);
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            actor.tell(w -> {                  // holds the activation so the next two share it
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            actor.tell(w -> {
                w.handled++;
                Thread.currentThread().interrupt();    // "catch (InterruptedException e) { restore }"
            });
            CompletableFuture<String> next = actor.ask(w -> {
                w.handled++;
                try {
                    Thread.sleep(1);
                    return "slept";
                } catch (InterruptedException e) {
                    return "interrupted by the previous message's leftover interrupt";
                }
            });
            release.countDown();
            assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo("slept");
            assertThat(actor.ask(w -> w.handled).get(10, TimeUnit.SECONDS))
                    .as("every message still processed").isEqualTo(2);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
