/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A system on a pool the caller owns, closed as documented: the system first, then the pool. The
 * pool's {@code close()}, interrupted while it waits, answers with {@code shutdownNow()} and drops
 * the tasks that returns; an actor whose activation was among them never ran again, so its asks
 * never completed, its stop never completed, and every later message to it waited in its mailbox
 * for good, neither processed nor a dead letter. A system closing a pool of its own ends such
 * actors as rejected; a Spindle pool closing now does so too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptedCloseOfTheCallersPoolFailsTheAsksItDroppedTest {

    /** Every pool kind with one worker (a union: one per member), which the busy actor holds. */
    static Stream<Arguments> oneWorkerPools() {
        return TestSchedulers.pools().filter(a -> (int) a.get()[1] == 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneWorkerPools")
    void anActorWhoseActivationTheInterruptedCloseDroppedEndsAsRejected(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.builder().scheduler((Scheduler) pool).failureHandler((a, e) -> { }).build();
        ActorRef<Object> busy = system.spawn(Object::new);
        ActorRef<Object> waiting = system.spawn(Object::new);
        CountDownLatch release = TestSchedulers.holdInATell(busy);   // the one worker, in a timed wait
        CompletableFuture<Integer> ask = waiting.ask(o -> 42);       // its activation waits in the pool's queue
        system.close();                                              // stops both; a caller-owned pool: no wait
        CompletableFuture<Void> stopped = waiting.stop();
        assertThat(ask).as("the ask waits behind the busy worker").isNotDone();

        Thread.currentThread().interrupt();    // pool.close() answers with shutdownNow()
        try {
            ((AutoCloseable) pool).close();
        } finally {
            Thread.interrupted();
            release.countDown();
        }
        assertThat(pool.isTerminated()).isTrue();

        assertThat(ask).failsWithin(Duration.ofSeconds(10))
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(ActorStoppedException.class);
        assertThat(stopped).as("the dropped actor's stop").succeedsWithin(Duration.ofSeconds(10));
        assertThat(waiting.isStopped()).isTrue();
        long before = system.stats().deadLetters();
        waiting.tell(o -> { });
        assertThat(system.stats().deadLetters()).as("a later tell is a dead letter").isEqualTo(before + 1);
        assertThat(system.stats().liveActors()).isZero();
    }
}
