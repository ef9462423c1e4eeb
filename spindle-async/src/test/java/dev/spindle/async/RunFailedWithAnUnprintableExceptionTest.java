/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Unprintable;
import dev.spindle.testkit.UnprintableChecked;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link AsyncRuntime#run} of a task that failed with an exception whose {@code toString()} throws,
 * and {@link Async#unchecked} of a checked one, must still give the {@link CompletionException}
 * that carries it: the wrapper's cause constructor printed the exception, and its
 * {@code toString()} failure came out instead, so the caller never learned how the task failed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RunFailedWithAnUnprintableExceptionTest {

    @Test
    void runOfATaskThatFailedUnprintablyThrowsTheCompletionExceptionCarryingIt() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncTask<Integer> failing = cx -> {
                throw new Unprintable();
            };
            assertThatThrownBy(() -> rt.run(failing)).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(Unprintable.class);
        }
    }

    @Test
    void uncheckedOfAnUnprintableCheckedExceptionWrapsIt() {
        UnprintableChecked e = new UnprintableChecked();
        RuntimeException r = Async.unchecked(e);
        assertThat(r).isInstanceOf(CompletionException.class).hasCause(e);
    }
}
