/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Unprintable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A handle whose task failed, or a promise completed exceptionally, with an exception whose
 * {@code toString()} throws (user code, as its {@code getMessage()} is): {@code get()} must still
 * throw an {@link ExecutionException}, and a task awaiting the handle a
 * {@link CompletionException}, with that exception as the cause. The wrappers' cause
 * constructors printed it, and the printing's failure was thrown instead, so the caller never
 * learned how the task failed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JoinHandleFailedWithAnUnprintableExceptionTest {

    @Test
    void getOfAPromiseFailedUnprintablyThrowsExecutionExceptionWithTheFailure() {
        AsyncPromise<Integer> promise = new AsyncPromise<>();
        assertThat(promise.completeExceptionally(new Unprintable())).isTrue();

        assertThatThrownBy(promise::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(Unprintable.class);
        assertThatThrownBy(() -> promise.get(0, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(Unprintable.class);
        assertThat(promise.toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void aTaskAwaitingAHandleFailedUnprintablySeesCompletionExceptionWithTheFailure() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            JoinHandle<Integer> failed = rt.spawn(cx -> {
                throw new Unprintable();
            });
            assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(Unprintable.class);

            JoinHandle<Object> awaiting = rt.spawn(cx -> {
                try {
                    return Poll.ready(failed.poll(cx));
                } catch (Throwable e) {
                    return Poll.ready(e);
                }
            });
            Object seen = awaiting.get(20, TimeUnit.SECONDS);
            assertThat(seen).isInstanceOf(CompletionException.class);
            assertThat(((Throwable) seen).getCause()).isInstanceOf(Unprintable.class);
        }
    }
}
