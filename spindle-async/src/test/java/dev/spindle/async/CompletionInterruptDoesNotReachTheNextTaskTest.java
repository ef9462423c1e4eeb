/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An interrupt that user code run by a task's completion on its worker leaves set (a
 * {@link JoinHandle#toCompletableFuture} callback that restores an interrupt, a waker, a
 * {@link Cancellable}) must not reach the next task that worker polls, as an interrupt left by
 * a poll does not: that task, unrelated to it, saw its blocking get throw
 * {@link InterruptedException}, or its file channel closed by the interrupt.
 */
@Timeout(60)
class CompletionInterruptDoesNotReachTheNextTaskTest {

    @Test
    void anInterruptLeftByACompletionCallbackIsClearedBeforeTheNextPoll() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncPromise<Integer> gate = new AsyncPromise<>();
            AtomicReference<JoinHandle<Boolean>> next = new AtomicReference<>();
            JoinHandle<Integer> first = rt.spawn(Async.map(gate, v -> {
                // runs on the one worker right after this poll and its completion, before any park
                next.set(rt.spawn(cx -> Poll.ready(Thread.currentThread().isInterrupted())));
                return v;
            }));
            first.toCompletableFuture().thenRun(() -> Thread.currentThread().interrupt());
            gate.complete(1);
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); next.get() == null; ) {
                assertThat(System.nanoTime() - end).as("the next task was spawned").isNegative();
                Thread.onSpinWait();
            }
            assertThat(next.get().get(10, TimeUnit.SECONDS))
                    .as("the next task's poll ran with the callback's interrupt set").isFalse();
        }
    }

    @Test
    void anInterruptLeftByACancelIsClearedBeforeTheNextPoll() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AtomicReference<JoinHandle<Boolean>> next = new AtomicReference<>();
            CountDownLatch polled = new CountDownLatch(1);
            class InterruptingCancel implements AsyncTask<Integer>, Cancellable {
                @Override
                public Poll<Integer> poll(Context cx) {
                    polled.countDown();
                    return Poll.pending();     // never woken: retired by the cancel below
                }

                @Override
                public void cancel() {
                    // run by the worker that retires the task; the task it spawns runs next there
                    next.set(rt.spawn(c -> Poll.ready(Thread.currentThread().isInterrupted())));
                    Thread.currentThread().interrupt();
                }
            }
            JoinHandle<Integer> cancelled = rt.spawn(new InterruptingCancel());
            assertThat(polled.await(10, TimeUnit.SECONDS)).as("the task was polled").isTrue();
            assertThat(cancelled.cancel(false)).isTrue();
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); next.get() == null; ) {
                assertThat(System.nanoTime() - end).as("the task was retired").isNegative();
                Thread.onSpinWait();
            }
            assertThat(next.get().get(10, TimeUnit.SECONDS))
                    .as("the next task's poll ran with the cancel's interrupt set").isFalse();
        }
    }
}
