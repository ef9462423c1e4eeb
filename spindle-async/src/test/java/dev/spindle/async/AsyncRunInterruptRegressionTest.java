/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link AsyncRuntime#run} when the calling thread is interrupted while the task completes: a
 * task that completed must be reported with its outcome, not as interrupted.
 */
class AsyncRunInterruptRegressionTest {

    private static final int ROUNDS = 2000;

    /**
     * The task interrupts the caller, waits until the caller's wait has consumed the interrupt
     * (its flag is clear again: the caller is on its way to cancel the task), then completes.
     * Which comes first, that completion or the caller's cancel, is a race; each round checks
     * that run() agrees with the handle: either it returns the value (the interrupt status kept
     * set), or the task really was cancelled. Before the fix, a round in which the completion
     * won threw the interrupt although the handle held the value. The caller waits from deep in
     * its stack, so that building the interrupted exception before its cancel takes a while,
     * which lets the completion win the race often.
     */
    @Test
    void runReportsTheValueOfATaskThatCompletedBeforeTheCancel() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("run-interrupt").build()) {
                for (int i = 0; i < ROUNDS; i++) {
                    Thread caller = Thread.currentThread();
                    int expected = i;
                    AtomicReference<JoinHandle<?>> handle = new AtomicReference<>();
                    AsyncTask<Integer> task = cx -> {
                        handle.set((JoinHandle<?>) cx);    // a spawned task is polled with its cell
                        caller.interrupt();
                        while (caller.isInterrupted()) {
                            Thread.onSpinWait();       // until the caller's wait took the interrupt
                        }
                        return Poll.ready(expected);
                    };
                    try {
                        Integer value = runDeep(rt, task, 1000);
                        assertThat(value).isEqualTo(expected);
                    } catch (CompletionException interrupted) {
                        assertThat(interrupted).hasCauseInstanceOf(InterruptedException.class);
                        assertThat(handle.get().isCancelled())
                                .as("round %d: run() threw the interrupt, so the task must have been "
                                        + "cancelled, but its handle completed normally", i)
                                .isTrue();
                    }
                    assertThat(Thread.interrupted()).as("interrupt status kept").isTrue();
                }
            } finally {
                Thread.interrupted();
            }
        });
    }

    /** {@code rt.run(task)} from {@code depth} frames further down the stack. */
    private static <T> T runDeep(AsyncRuntime rt, AsyncTask<T> task, int depth) {
        return depth == 0 ? rt.run(task) : runDeep(rt, task, depth - 1);
    }
}
