/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A {@link ComputeTask} cancelled before anything started it: its outcome is the cancellation,
 * so {@code invoke()}, {@code pool.invoke}, {@code spawn} and {@code fork()} report it with a
 * {@link CancellationException}, as its {@code join()} does (and as a {@code ForkJoinTask}'s
 * {@code invoke()} does). They threw an {@link IllegalStateException} saying the task "already
 * was [forked], or ran", which it never was, and which the Javadoc promises only for a task
 * started before.
 */
class ComputeTaskCancelledBeforeStartTest {

    @Test
    void invokeOfATaskCancelledBeforeItStartedThrowsCancellationException() {
        AtomicInteger runs = new AtomicInteger();
        ComputeTaskTest.Counting task = new ComputeTaskTest.Counting(runs);
        assertThat(task.cancel(false)).isTrue();

        assertThatThrownBy(task::join).isInstanceOf(CancellationException.class);
        assertThatThrownBy(task::invoke).isInstanceOf(CancellationException.class);
        assertThat(runs).hasValue(0);
        assertThat(task.isCancelled()).isTrue();
    }

    @Test
    void poolInvokeAndSpawnOfATaskCancelledBeforeItStartedThrowCancellationException() {
        AtomicInteger runs = new AtomicInteger();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            ComputeTaskTest.Counting invoked = new ComputeTaskTest.Counting(runs);
            invoked.cancel(true);
            assertThatThrownBy(() -> pool.invoke(invoked)).isInstanceOf(CancellationException.class);

            ComputeTaskTest.Counting spawned = new ComputeTaskTest.Counting(runs);
            spawned.cancel(false);
            assertThatThrownBy(() -> pool.spawn(spawned)).isInstanceOf(CancellationException.class);

            // fork() on a worker, as a recursive computation that cancels a pending sibling does
            ComputeTaskTest.Counting forked = new ComputeTaskTest.Counting(runs);
            forked.cancel(false);
            Throwable onWorker = pool.invoke(() -> {
                try {
                    forked.fork();
                    return null;
                } catch (Throwable e) {
                    return e;
                }
            });
            assertThat(onWorker).isInstanceOf(CancellationException.class);
            assertThat(pool.invoke(() -> 1)).isEqualTo(1);
        }
        assertThat(runs).hasValue(0);
    }
}
