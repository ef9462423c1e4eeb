/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code stats().completed()} (Micrometer's {@code spindle.pool.tasks.completed}) counts every
 * task a worker runs to its end. The pools on {@link AbstractPool} run the tasks of an
 * {@code invokeAll} or {@code invokeAny} called on one of their workers on that worker, outside
 * the worker loop, and did not count them: a {@link PinnedPool} worker that ran five tasks of an
 * {@code invokeAll} and two of an {@code invokeAny} reported one completed task, the outer one.
 * With shared queues the queued copies of {@code invokeAll}'s tasks were counted instead, the
 * ones the caller had already run included, so the count matched only by chance and the
 * {@code invokeAny} runs were missing. The {@link WorkStealingPool} counts a task once, where it
 * runs, and skips a queue entry run elsewhere; these pools now do the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvokeOnAWorkerCompletedCountTest {

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"SHARING", "PRIORITY", "PINNED"})
    void tasksThatInvokeAllAndInvokeAnyRunOnTheCallingWorkerAreCountedOnce(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        AtomicInteger ran = new AtomicInteger();
        List<Callable<Integer>> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int k = i;
            all.add(() -> {
                ran.incrementAndGet();
                return k;
            });
        }
        List<Callable<Integer>> any = List.of(
                () -> {
                    ran.incrementAndGet();
                    throw new IllegalStateException("expected by the test: invokeAny goes on to the next");
                },
                () -> {
                    ran.incrementAndGet();
                    return 42;
                });
        CompletableFuture<Integer> outer = new CompletableFuture<>();
        pool.execute(() -> {
            try {
                int sum = 0;
                for (var f : pool.invokeAll(all)) {
                    sum += f.get();
                }
                outer.complete(sum + pool.invokeAny(any));
            } catch (Throwable t) {
                outer.completeExceptionally(t);
            }
        });
        assertThat(outer.get(10, TimeUnit.SECONDS)).isEqualTo(0 + 1 + 2 + 3 + 4 + 42);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        assertThat(ran.get()).as("%s: tasks of invokeAll and invokeAny run", kind).isEqualTo(7);
        assertThat(pool.stats().completed())
                .as("%s: the outer task and the seven it invoked, each once", kind).isEqualTo(1 + 7);
    }
}
