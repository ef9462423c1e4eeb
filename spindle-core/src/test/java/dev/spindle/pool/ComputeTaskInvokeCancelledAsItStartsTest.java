/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ComputeTask#invoke()} of a task that another thread cancels after {@code invoke} marked
 * it started and before it ran it: the cancellation is the task's outcome, and {@code invoke}
 * reports it as its Javadoc says, with a {@link CancellationException}, as its {@code join()}
 * does. It threw an {@link IllegalStateException} saying the task "can be started once" and
 * "already was", which it never was. The cancel comes in through {@code tryRun}, the run that
 * {@code invoke} starts, so the race is taken on every run.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ComputeTaskInvokeCancelledAsItStartsTest {

    @Test
    void invokeOfATaskCancelledAsItStartsThrowsCancellationException() {
        AtomicInteger runs = new AtomicInteger();
        ComputeTask<String> task = new ComputeTask<>() {
            @Override
            protected String compute() {
                runs.incrementAndGet();
                return "ran";
            }

            @Override
            boolean tryRun() {
                assertThat(cancel(false)).as("the cancel from another thread, as invoke starts the run").isTrue();
                return super.tryRun();
            }
        };

        assertThatThrownBy(task::invoke).isInstanceOf(CancellationException.class);
        assertThat(runs).hasValue(0);
        assertThat(task.isCancelled()).isTrue();
        assertThatThrownBy(task::join).isInstanceOf(CancellationException.class);
    }
}
