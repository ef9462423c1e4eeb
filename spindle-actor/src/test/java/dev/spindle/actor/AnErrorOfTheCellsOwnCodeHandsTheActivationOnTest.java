/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@code Error} thrown by the cell's own code while an activation holds the actor (not by a
 * message, whose failures {@code deliver} catches): a {@code StackOverflowError} as the activation
 * hands itself back to the scheduler, an {@code OutOfMemoryError} as the stop's rejection of a
 * queued ask builds its exception. It escaped the activation with the state still {@code ACTIVE}
 * and nobody holding it: the actor never ran again, its later messages and asks waited for good,
 * its stop never completed, and the failure reached only the scheduler's thread. Now the
 * activation hands itself on: the error goes to the failure handler, and the actor goes on (or,
 * stopping, finishes its stop), every message processed or its sender told.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnErrorOfTheCellsOwnCodeHandsTheActivationOnTest {

    @AfterEach
    void clearHooks() {
        ActorCell.resubmitHook = null;
        ActorCell.rejectionAllocationHook = null;
    }

    @Test
    void anErrorAsTheActivationResubmitsItselfIsReportedAndTheActorGoesOn() throws Exception {
        StackOverflowError overflow = new StackOverflowError("made by the test");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        AtomicInteger processed = new AtomicInteger();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.builder().scheduler(manual)
                .failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<Object> ref = system.spawn(Object::new,
                    ActorConfig.builder().name("resubmitting").maxMessagesPerActivation(1).build());
            ActorCell.resubmitHook = () -> {
                if (failOnce.getAndSet(false)) {
                    throw overflow;
                }
            };
            ref.tell(a -> processed.incrementAndGet());      // its activation resubmits: the throw
            ref.tell(a -> processed.incrementAndGet());
            CompletableFuture<Integer> asked = ref.ask(a -> 42);

            Throwable escaped = catchThrowable(manual::runAll);
            assertThat(failOnce).as("the hook ran").isFalse();
            ref.tell(a -> processed.incrementAndGet());      // a later message
            CompletableFuture<Void> stopped = ref.stop();
            manual.runAll();

            assertThat(processed.get()).as("every tell").isEqualTo(3);
            assertThat(asked).isCompletedWithValue(42);
            assertThat(stopped).isCompleted();
            assertThat(escaped).as("thrown out of the activation").isNull();
        }
        assertThat(reported).containsExactly(overflow);
    }

    @Test
    void anErrorRejectingAnAskBehindTheStopFailsThatAskAndTheStopCompletes() throws Exception {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space (made by the test)");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.builder().scheduler(manual)
                .failureHandler((a, t) -> reported.add(t)).build()) {
            ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("stopping").build());
            ref.tell(a -> { });
            CompletableFuture<Void> stopped = ref.stop();
            CompletableFuture<Integer> first = ref.ask(a -> 1);   // queued behind the stop: rejected
            CompletableFuture<Integer> second = ref.ask(a -> 2);
            ActorCell.rejectionAllocationHook = () -> {
                if (failOnce.getAndSet(false)) {
                    throw oom;
                }
            };

            Throwable escaped = catchThrowable(manual::runAll);
            manual.runAll();

            assertThat(failOnce).as("the hook ran").isFalse();
            assertThat(first).as("the ask whose rejection threw").isCompletedExceptionally();
            assertThatCode(() -> first.get(0, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCause(oom);
            assertThat(second).as("the ask behind it").isCompletedExceptionally();
            assertThatCode(() -> second.get(0, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ActorStoppedException.class);
            assertThat(stopped).as("the stop").isCompleted();
            assertThat(escaped).as("thrown out of the activation").isNull();
        }
    }
}
