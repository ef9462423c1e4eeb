/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Before: {@code awaitTermination} of a pool that had terminated, called by a thread whose
 * interrupt was pending, threw {@link InterruptedException} (and cleared the interrupt) instead
 * of returning {@code true}: the pool's latch looks at the interrupt before its count. There is
 * nothing to wait for, and a {@link ThreadPoolExecutor} and a {@link ForkJoinPool} (JDK 17 and
 * 25) return {@code true} and leave the interrupt pending; so does every pool now, and a union
 * of them. The JDK's pools run as the reference, so that a change of theirs shows here.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AwaitTerminationOfATerminatedPoolByAnInterruptedThreadTest {

    static Stream<Named<Supplier<ExecutorService>>> pools() {
        return Stream.of(
                Named.of("ThreadPoolExecutor", () -> new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>())),
                Named.of("ForkJoinPool", () -> new ForkJoinPool(1)),
                Named.of("work-stealing", () -> WorkStealingPool.builder().workers(1).build()),
                Named.of("work-sharing", () -> WorkSharingPool.builder().workers(1).build()),
                Named.of("priority", () -> PriorityPool.builder().workers(1).build()),
                Named.of("pinned", () -> PinnedPool.builder().workers(1).build()),
                Named.of("union", () -> SchedulerUnion.owning(WorkSharingPool.builder().workers(1).build())));
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aTerminatedPoolAnswersTrueAndLeavesTheInterrupt(Supplier<ExecutorService> kind) throws Exception {
        ExecutorService pool = kind.get();
        pool.submit(() -> "ran").get();
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated").isTrue();

        Thread.currentThread().interrupt();
        Object answer;
        boolean stillInterrupted;
        try {
            answer = catchThrowable(() -> assertThat(pool.awaitTermination(1, TimeUnit.SECONDS)).isTrue());
        } finally {
            stillInterrupted = Thread.interrupted();
        }
        assertThat(answer).as("what awaitTermination threw").isNull();
        assertThat(stillInterrupted).as("the interrupt is still pending").isTrue();
    }
}
