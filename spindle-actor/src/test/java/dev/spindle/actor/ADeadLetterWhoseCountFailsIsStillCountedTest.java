/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ended actor rejects the messages left in its mailbox, each a dead letter. Where the count
 * of one failed (a stack overflow at the call, the actor ending deep in a sender's stack on a
 * scheduler that runs activations inside {@code execute}: at a fixed depth every rejection fails
 * alike), the failure was reported and the message counted nowhere: the stack-limit test read 9
 * messages neither processed nor dead letters. The rejecting loop now counts it by a store. Made
 * here by the test hook, which fails every count while it is set. An ask's rejection catches
 * what its count throws (its future fails with it), so the loop never sees it: it counts the
 * dead letter itself, or the ask was counted nowhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ADeadLetterWhoseCountFailsIsStillCountedTest {

    @AfterEach
    void clearHook() {
        ActorSystem.deadLetterHook = null;
    }

    /**
     * An actor held inside a message and stopped while held, so that what is sent to it now
     * waits in its mailbox behind the stop, to be rejected as the actor ends.
     */
    private record HeldAndStopped(ActorRef<int[]> ref, CountDownLatch release, CompletableFuture<Void> stopped) {

        /** Spawns an actor in {@code system}, holds it in a message, and stops it while it is held. */
        static HeldAndStopped in(ActorSystem system) throws InterruptedException {
            ActorRef<int[]> ref = system.spawn(() -> new int[1]);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ref.tell(x -> {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            entered.await();
            return new HeldAndStopped(ref, release, ref.stop());
        }

        /**
         * Lets the actor go with every dead-letter count throwing {@code failure}, waits for its
         * end, and then lets the counts succeed again.
         */
        void endWhileCountsThrow(Error failure) {
            ActorSystem.deadLetterHook = () -> {
                throw failure;
            };
            release.countDown();
            assertThat(stopped).succeedsWithin(Duration.ofSeconds(20));
            ActorSystem.deadLetterHook = null;
        }
    }

    @Test
    void tellsLeftBehindTheStopAreCountedAsDeadLettersWhenTheirCountFails() throws Exception {
        StackOverflowError overflow = new StackOverflowError("made by the test");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> reported.add(t)).build()) {
            HeldAndStopped held = HeldAndStopped.in(system);
            for (int i = 0; i < 3; i++) {
                held.ref().tell(x -> x[0]++);       // behind the stop: rejected by the ending actor
            }
            held.endWhileCountsThrow(overflow);

            assertThat(reported).as("each failed count, reported").hasSize(3).containsOnly(overflow);
            ActorSystemStats stats = system.stats();
            assertThat(stats.messagesProcessed()).as("the message that held the actor").isEqualTo(1);
            assertThat(stats.deadLetters()).as("the three tells behind the stop").isEqualTo(3);
        }
    }

    @Test
    void anAskLeftBehindTheStopIsCountedAsADeadLetterWhenItsCountFails() throws Exception {
        StackOverflowError overflow = new StackOverflowError("made by the test");
        try (ActorSystem system = ActorSystem.create()) {
            HeldAndStopped held = HeldAndStopped.in(system);
            CompletableFuture<Integer> asked = held.ref().ask(x -> ++x[0]);   // behind the stop
            held.endWhileCountsThrow(overflow);

            Throwable told = catchThrowable(() -> asked.get(20, TimeUnit.SECONDS));
            assertThat(told).as("the asker, told by what its count threw")
                    .isInstanceOf(ExecutionException.class);
            assertThat(told.getCause()).isSameAs(overflow);
            ActorSystemStats stats = system.stats();
            assertThat(stats.messagesProcessed()).as("the message that held the actor").isEqualTo(1);
            assertThat(stats.deadLetters()).as("the ask behind the stop").isEqualTo(1);
        }
    }
}
