/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ask's future, or a {@code stop()}'s, completed on the actor's thread runs the stages made
 * from it there. A {@link CompletableFuture} passes a failure on to a dependent stage wrapped in
 * a {@code CompletionException}, whose constructor calls the failure's {@code toString()}: the
 * application's code, which can throw (a {@code getMessage()} reading a field never set). That
 * escaped from {@code complete}, and the JDK left the future's other dependents, and the threads
 * waiting in its {@code join()}, unwoken. Escaping the message's delivery, it ended the activation
 * without giving it up: the actor never ran again, its later messages were neither processed nor
 * dead letters, and its stop never completed (a system owning its pool waited for it in
 * {@code close()} for good). Escaping the stop's rejections or the termination's completion, it
 * left the asks behind the stop pending and the other {@code stop()} futures incomplete.
 *
 * <p>Now such a throw goes to the failure handler, the future's other stages and waiters are
 * fired (a stage whose own wrapping throws stays incomplete, as the JDK leaves it), and the actor
 * goes on, or ends, as it would have.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StageFailureThatCannotDescribeItselfTest {

    /** A failure whose message is built from a field never set. */
    static final class Undescribable extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String key = null;

        @Override
        public String getMessage() {
            return "missing " + key.trim();   // throws: key is null
        }
    }

    /**
     * Whether this JDK's {@code CompletableFuture} describes a failure as it wraps it for a
     * dependent stage, so that a failure whose {@code toString()} throws escapes the completion
     * (JDK 17 does; JDK 25 wraps it without a message): the stage's throw reported, once, where
     * it does; nothing to report where it does not. Either way the actor must go on.
     */
    static final boolean WRAPPING_DESCRIBES = wrappingDescribes();

    private static boolean wrappingDescribes() {
        CompletableFuture<Object> probe = new CompletableFuture<>();
        probe.thenApply(x -> x);
        try {
            probe.completeExceptionally(new Undescribable());
            return false;
        } catch (RuntimeException thrownByToString) {
            return true;
        }
    }

    private static final int REPORTS = WRAPPING_DESCRIBES ? 1 : 0;

    private final List<Throwable> reported = new CopyOnWriteArrayList<>();

    private ActorSystem system(TestSchedulers.Manual manual) {
        return ActorSystem.builder().scheduler(manual).failureHandler((a, t) -> reported.add(t)).build();
    }

    @Test
    void anAskThatFailsWithAStageThatCannotDescribeTheFailureLeavesTheActorRunning() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = system(manual)) {
            AtomicInteger processed = new AtomicInteger();
            ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("asked").build());
            CompletableFuture<Object> failed = ref.ask(a -> {
                throw new Undescribable();
            });
            CompletableFuture<Object> early = failed.handle((x, t) -> "handled");  // fired after the one below
            failed.thenApply(x -> x);                                         // its wrapping throws
            ref.tell(a -> processed.incrementAndGet());
            CompletableFuture<Void> stopped = ref.stop();

            assertThatCode(manual::runAll).as("the activation").doesNotThrowAnyException();
            manual.runAll();

            assertThat(failed).isCompletedExceptionally();
            assertThat(early).as("a stage of the failed ask registered before the one that threw")
                    .isCompletedWithValue("handled");
            assertThat(processed.get()).as("the message after the ask").isEqualTo(1);
            assertThat(stopped).as("the stop").isCompleted();
            assertThat(ref.isStopped()).isTrue();
            assertThat(reported).as("the stage's throw, reported").hasSize(REPORTS);
        }
    }

    @Test
    void anAnswerWhoseStageThrowsAnUndescribableFailureLeavesTheActorRunning() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = system(manual)) {
            AtomicInteger processed = new AtomicInteger();
            ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("answered").build());
            CompletableFuture<Integer> answer = ref.ask(a -> 1);
            CompletableFuture<Integer> early = answer.thenApply(x -> x + 1);
            answer.thenApply(x -> {
                throw new Undescribable();
            });
            ref.tell(a -> processed.incrementAndGet());
            CompletableFuture<Void> stopped = ref.stop();

            assertThatCode(manual::runAll).as("the activation").doesNotThrowAnyException();
            manual.runAll();

            assertThat(early).isCompletedWithValue(2);
            assertThat(processed.get()).isEqualTo(1);
            assertThat(stopped).isCompleted();
            assertThat(reported).hasSize(REPORTS);
        }
    }

    @Test
    void aRejectedAskWhoseStageThrowsAnUndescribableFailureLetsTheStopComplete() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = system(manual)) {
            ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("rejecting").build());
            ref.tell(a -> { });
            CompletableFuture<Void> stopped = ref.stop();
            CompletableFuture<Object> first = ref.ask(a -> 1);
            first.exceptionally(t -> {
                throw new Undescribable();
            });
            CompletableFuture<Object> second = ref.ask(a -> 2);

            assertThatCode(manual::runAll).as("the activation").doesNotThrowAnyException();

            assertThat(first).isCompletedExceptionally();
            assertThat(second).as("the ask behind the one whose stage threw").isCompletedExceptionally();
            assertThat(stopped).isCompleted();
            assertThat(system.stats().deadLetters()).isEqualTo(2);
            assertThat(reported).hasSize(REPORTS);
        }
    }

    @Test
    void aStageOfOneStopThatThrowsAnUndescribableFailureLetsTheOtherStopsComplete() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = system(manual)) {
            ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("stopped").build());
            ref.tell(a -> { });
            CompletableFuture<Void> other = ref.stop();
            CompletableFuture<Void> mine = ref.stop();       // completed before the other
            mine.thenRun(() -> {
                throw new Undescribable();
            });

            assertThatCode(manual::runAll).as("the activation").doesNotThrowAnyException();

            assertThat(mine).isCompleted();
            assertThat(other).as("the other stop() future").isCompleted();
            assertThat(reported).hasSize(REPORTS);
        }
    }
}
