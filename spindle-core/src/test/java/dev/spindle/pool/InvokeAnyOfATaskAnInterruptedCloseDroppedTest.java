/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Before: an {@code invokeAny} called from outside the pool whose tasks were still queued when
 * an interrupted {@code close()} stopped the pool waited for good ("still waiting 10 s after the
 * pool terminated"): {@code AbstractExecutorService}'s {@code invokeAny} queues each task inside
 * a completion-queue wrapper, which {@code shutdownNow()} returned; the close cancelled that
 * wrapper, as it cancels every future it drops so that its caller is told, but the task's own
 * future, the one {@code invokeAny} waits for, stayed not started. Now the task is cancelled
 * with its wrapper, and {@code invokeAny} ends with an {@link ExecutionException} whose cause
 * is the {@link CancellationException}, as when its tasks fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvokeAnyOfATaskAnInterruptedCloseDroppedTest {

    static Stream<Named<Supplier<ExecutorService>>> oneWorker() {
        return Stream.of(
                Named.of("work-stealing", () -> WorkStealingPool.builder().workers(1).build()),
                Named.of("work-sharing", () -> WorkSharingPool.builder().workers(1).build()),
                Named.of("priority", () -> PriorityPool.builder().workers(1).build()),
                Named.of("pinned", () -> PinnedPool.builder().workers(1).build()));
    }

    @ParameterizedTest
    @MethodSource("oneWorker")
    void anInvokeAnyFromOutsideEndsWhenAnInterruptedCloseDropsItsTasks(Supplier<ExecutorService> kind)
            throws Exception {
        ExecutorService pool = kind.get();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try {
            pool.execute(() -> {               // holds the only worker until shutdownNow interrupts it
                started.countDown();
                try {
                    never.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // shutdownNow's: the task ends
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            Thread invoker = new Thread(() -> {
                try {
                    outcome.complete(pool.invokeAny(List.of(() -> "ran", () -> "ran too")));
                } catch (Throwable e) {
                    outcome.complete(e);
                }
            }, "invoker");
            invoker.setDaemon(true);
            invoker.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (queued(pool) < 2 && System.nanoTime() < deadline) {
                Thread.sleep(1);               // until both tasks wait behind the running one
            }
            assertThat(queued(pool)).as("tasks queued").isEqualTo(2);

            Thread closer = new Thread(() -> close(pool), "closer");
            closer.setDaemon(true);
            closer.start();
            closer.interrupt();                // an interrupted close: shutdownNow, and the drops cancelled
            closer.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(pool.isTerminated()).as("terminated").isTrue();

            Object got;
            try {
                got = outcome.get(10, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                got = "still waiting 10 s after the pool terminated";
            }
            assertThat(got).as("how invokeAny ended").isInstanceOf(ExecutionException.class);
            assertThat(((Throwable) got).getCause()).isInstanceOf(CancellationException.class);
        } finally {
            never.countDown();
            pool.shutdownNow();
        }
    }

    private static void close(ExecutorService pool) {
        try {
            ((AutoCloseable) pool).close();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static long queued(ExecutorService pool) {
        return ((PoolCore) pool).stats().queued();
    }
}
