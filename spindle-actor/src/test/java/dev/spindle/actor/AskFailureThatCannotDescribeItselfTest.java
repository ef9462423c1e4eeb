/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ask whose function throws a failure whose {@code toString()} throws (a {@code getMessage()}
 * reading a field never set). The JDK's {@code get()} makes its {@link ExecutionException}, and
 * {@code join()} its {@link CompletionException}, with the cause constructor, which calls that
 * {@code toString()}: the asker got the {@code NullPointerException} it threw instead, with the
 * function's failure nowhere (not even a cause), as if the ask's machinery had failed. Now
 * {@code get()} and {@code join()} throw their own exception, with the failure as its cause and a
 * message saying its {@code toString()} threw.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AskFailureThatCannotDescribeItselfTest {

    @Test
    void getAndJoinOfAnAskWhoseFailureCannotDescribeItselfThrowTheirOwnExceptionWithTheFailure() {
        StageFailureThatCannotDescribeItselfTest.Undescribable failure =
                new StageFailureThatCannotDescribeItselfTest.Undescribable();
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(manual)) {
            ActorRef<Object> ref = system.spawn(Object::new);
            CompletableFuture<Object> answer = ref.ask(a -> {
                throw failure;
            });
            manual.runAll();

            Throwable got = catchThrowable(answer::get);
            assertThat(got).as("get()").isInstanceOf(ExecutionException.class).hasCause(failure);
            if (StageFailureThatCannotDescribeItselfTest.WRAPPING_DESCRIBES) {
                // the JDK's own exception could not be made: the actor's names the failure
                assertThat(got.getMessage()).contains(failure.getClass().getName()).contains("toString() threw");
            }

            Throwable joined = catchThrowable(answer::join);
            assertThat(joined).as("join()").isInstanceOf(CompletionException.class).hasCause(failure);

            Throwable timed = catchThrowable(() -> answer.get(10, TimeUnit.SECONDS));
            assertThat(timed).as("get(timeout)").isInstanceOf(ExecutionException.class).hasCause(failure);

        }
    }

    @Test
    void anAskThatFailsPlainlyReportsAsBefore() {
        IllegalArgumentException failure = new IllegalArgumentException("bad input");
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(manual)) {
            ActorRef<Object> ref = system.spawn(Object::new);
            CompletableFuture<Object> answer = ref.ask(a -> {
                throw failure;
            });
            manual.runAll();
            Throwable got = catchThrowable(answer::get);
            assertThat(got).isInstanceOf(ExecutionException.class).hasCause(failure)
                    .hasMessage(failure.toString());
            assertThat(catchThrowable(answer::join)).isInstanceOf(CompletionException.class).hasCause(failure);
        }
    }
}
