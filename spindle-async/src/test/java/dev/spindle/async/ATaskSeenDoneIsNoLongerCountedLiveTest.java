/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

/**
 * A task's end moved it out of {@link AsyncRuntime#liveTasks()} in two steps: its handle was
 * completed (its waiters released), then its worker counted it retired. A caller that had seen
 * the handle complete, with nothing else in the runtime, read one live task. The handle's
 * {@link JoinHandle#toCompletableFuture()} runs its dependents on the completing worker, between
 * the two steps: one of them holds the worker there while the test thread reads the count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ATaskSeenDoneIsNoLongerCountedLiveTest {

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aHandleSeenCompleteLeavesNoLiveTask(AsyncPolicy policy) throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).name("seen-done-" + policy).build();
        CountDownLatch inDependent = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> dependentFailed = new AtomicReference<>();
        try {
            CompletableFuture<Integer> gate = new CompletableFuture<>();
            JoinHandle<Integer> h = rt.spawn(Async.from(gate));
            CompletableFuture<Void> dependent = h.toCompletableFuture().thenRun(() -> {
                inDependent.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (Throwable e) {
                    dependentFailed.set(e);
                }
            });
            gate.complete(7);
            assertThat(inDependent.await(30, TimeUnit.SECONDS)).as("the handle completed").isTrue();
            assertThat(h.isDone()).isTrue();
            long live = rt.liveTasks();
            release.countDown();
            dependent.get(30, TimeUnit.SECONDS);
            assertThat(dependentFailed.get()).isNull();
            assertThat(live).as("live tasks once the only task's handle is complete").isZero();
        } finally {
            release.countDown();
            rt.close();
        }
    }
}
