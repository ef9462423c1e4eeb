/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Unprintable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task whose computation failed with an exception whose {@code toString()} throws (user code,
 * as its {@code getMessage()} is): {@code join()} and {@code invoke} must still throw a
 * {@link CompletionException}, {@code get()} an {@link ExecutionException}, with that exception
 * as the cause, a second start the {@link IllegalStateException} its Javadoc promises, and the
 * task's {@code toString()} must not throw. Each wrapper's message printed the exception (the
 * JDK's cause constructors print it), and the refusal's message printed the task, which printed
 * the exception: all of them threw the exception's {@code toString()} failure instead, so the
 * joiner never learned how the task failed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ForkTaskFailedWithAnUnprintableExceptionTest {

    static final class Failing extends ComputeTask<Integer> {
        @Override
        protected Integer compute() {
            throw new Unprintable();
        }
    }

    @Test
    void joinGetAndASecondInvokeOfATaskThatFailedUnprintablyReportWhatTheyPromise() {
        Failing task = new Failing();
        assertThatThrownBy(task::invoke).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(Unprintable.class);

        assertThat(task.toString()).contains("completed exceptionally").contains(Unprintable.class.getName());
        assertThatThrownBy(task::invoke).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(task::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(Unprintable.class);
        assertThatThrownBy(task::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(Unprintable.class);
        assertThatThrownBy(() -> task.get(0, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(Unprintable.class);
        assertThat(task.toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void poolInvokeJoinAndASecondSpawnOfATaskThatFailedUnprintablyReportWhatTheyPromise() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            Failing task = new Failing();
            assertThatThrownBy(() -> pool.invoke(task)).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(Unprintable.class);

            assertThatThrownBy(() -> pool.spawn(task)).isInstanceOf(IllegalStateException.class);
            Object joinedOnWorker = pool.invoke(() -> {
                try {
                    return pool.spawn(() -> {
                        throw new Unprintable();
                    }).join();
                } catch (Throwable e) {
                    return e;
                }
            });
            assertThat(joinedOnWorker).isInstanceOf(CompletionException.class);
            assertThat(((Throwable) joinedOnWorker).getCause()).isInstanceOf(Unprintable.class);
            Object onWorker = pool.invoke(() -> {
                try {
                    task.fork();
                    return null;
                } catch (Throwable e) {
                    return e;
                }
            });
            assertThat(onWorker).isInstanceOf(IllegalStateException.class);
        }
    }
}
