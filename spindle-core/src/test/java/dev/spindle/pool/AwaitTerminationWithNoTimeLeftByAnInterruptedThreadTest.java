/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CountDownLatch;
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
 * Before: {@code awaitTermination} with no time left (0 or negative), called on a pool that has
 * not terminated by a thread whose interrupt was pending, threw {@link InterruptedException}
 * (and cleared the interrupt), while a union not yet shut down answered {@code false}, and a
 * union shut down threw as its member did. There is no wait to interrupt: a
 * {@link ThreadPoolExecutor} and a {@link ForkJoinPool} answer {@code false} and leave the
 * interrupt pending (JDK 17; JDK 25's {@code ForkJoinPool} throws); so does every pool now,
 * and a union of them, running or shut down. {@link ThreadPoolExecutor} runs as the reference.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AwaitTerminationWithNoTimeLeftByAnInterruptedThreadTest {

    /**
     * The pools of {@link AwaitTerminationOfATerminatedPoolByAnInterruptedThreadTest} but the
     * JDK's {@link ForkJoinPool}: JDK 17's answers {@code false} here, JDK 25's throws (its
     * {@code awaitTermination} waits on a latch that looks at the interrupt first), so it is no
     * reference across JDKs; {@link ThreadPoolExecutor} answers {@code false} on both.
     */
    static Stream<Named<Supplier<ExecutorService>>> pools() {
        return AwaitTerminationOfATerminatedPoolByAnInterruptedThreadTest.pools()
                .filter(p -> !p.getName().equals("ForkJoinPool"));
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aRunningPoolAnswersFalseAndLeavesTheInterrupt(Supplier<ExecutorService> kind) throws Exception {
        ExecutorService pool = kind.get();
        try {
            assertNoTimeLeftAnswersFalse(pool);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aShutDownPoolStillRunningATaskAnswersFalseAndLeavesTheInterrupt(Supplier<ExecutorService> kind)
            throws Exception {
        ExecutorService pool = kind.get();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertNoTimeLeftAnswersFalse(pool);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    private static void assertNoTimeLeftAnswersFalse(ExecutorService pool) {
        for (long timeout : new long[] {0, -1, Long.MIN_VALUE}) {
            Thread.currentThread().interrupt();
            Object thrown;
            boolean[] answer = new boolean[1];
            boolean stillInterrupted;
            try {
                thrown = catchThrowable(() -> answer[0] = pool.awaitTermination(timeout, TimeUnit.NANOSECONDS));
            } finally {
                stillInterrupted = Thread.interrupted();
            }
            assertThat(thrown).as("what awaitTermination(%d) threw", timeout).isNull();
            assertThat(answer[0]).as("awaitTermination(%d)", timeout).isFalse();
            assertThat(stillInterrupted).as("the interrupt is still pending").isTrue();
        }
    }
}
