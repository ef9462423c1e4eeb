/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What Java code written against an {@link ExecutorService} expects of Spindle's schedulers, as a
 * {@link ThreadPoolExecutor} does it, where they did otherwise. Each test's Javadoc says what it
 * saw before the fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExecutorContractRegressionTest {

    /**
     * Before: a {@link WorkStealingPool}'s {@code invokeAll} took a {@code null} element of the
     * collection as a task and returned normally, with a future that failed with a
     * {@link NullPointerException} when run; {@link ExecutorService#invokeAll} promises the
     * exception to the caller ("if tasks or any of its elements are null"), as a
     * {@link ThreadPoolExecutor} throws it (the pool's {@code newTaskFor} made a task of
     * {@code null} where {@link FutureTask}'s constructor refuses it).
     */
    @Test
    void invokeAllRejectsANullElementAsAThreadPoolExecutorDoes() throws Exception {
        List<Callable<Integer>> withNull = new ArrayList<>();
        withNull.add(() -> 1);
        withNull.add(null);
        ThreadPoolExecutor tpe = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            Throwable jdk = catchThrowable(() -> tpe.invokeAll(withNull));
            Throwable untimed = catchThrowable(() -> pool.invokeAll(withNull));
            Throwable timed = catchThrowable(() -> pool.invokeAll(withNull, 10, TimeUnit.SECONDS));
            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(jdk).as("ThreadPoolExecutor's invokeAll").isInstanceOf(NullPointerException.class);
                soft.assertThat(untimed).as("invokeAll").isInstanceOf(NullPointerException.class);
                soft.assertThat(timed).as("timed invokeAll").isInstanceOf(NullPointerException.class);
            });
        } finally {
            tpe.shutdownNow();
        }
    }

    /**
     * Before: a thread outside the pool (or a worker of another pool) that waited in
     * {@code invoke} (or {@code join}, {@code parallelFor}) for a task that {@code shutdownNow()}
     * then drained and returned waited for good, and ignored interrupts ("expected the invoke to end, but it was still waiting
     * 10 s after the pool terminated and the thread was interrupted"): the join from outside
     * waits until the task completes, and nothing runs a returned task unless the caller of
     * {@code shutdownNow()} does, which most ignore the list. A worker's join of the same task
     * ends with a {@link CancellationException} once the pool stops, and a
     * {@link java.util.concurrent.ForkJoinPool}'s {@code invoke} with one too (it cancels what
     * {@code shutdownNow()} drains).
     */
    @ParameterizedTest
    @EnumSource(Caller.class)
    void anInvokeFromOutsideEndsWhenShutdownNowHandsItsTaskBack(Caller where) throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Runnable> returned = new ArrayList<>();
        Thread caller = null;
        PoolCore other = null;
        try {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            Runnable invoke = () -> {
                try {
                    outcome.complete(pool.invoke(() -> "ran"));
                } catch (Throwable e) {
                    outcome.complete(e);
                }
            };
            if (where == Caller.THREAD) {
                caller = new Thread(invoke, "invoker");
                caller.setDaemon(true);
                caller.start();
            } else {
                other = where.pool();
                other.execute(invoke);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.stats().queued() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);              // until the invoked task is queued behind the running one
            }
            returned.addAll(pool.shutdownNow());
            release.countDown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            if (caller != null) {
                caller.interrupt();
            }

            Object got;
            try {
                got = outcome.get(10, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                got = "still waiting 10 s after the pool terminated and the thread was interrupted";
            }
            assertThat(got).as("how the invoke ended").isInstanceOf(CancellationException.class);
            assertThat(returned).as("shutdownNow() still returns the task").hasSize(1);
        } finally {
            release.countDown();
            for (Runnable r : returned) {
                ((Future<?>) r).cancel(false);   // frees the invoker if it still waits
            }
            pool.shutdownNow();
            if (other != null) {
                other.shutdownNow();
            }
        }
    }

    /** Where the thread that invokes runs: outside any pool, or on a worker of another pool. */
    enum Caller {
        THREAD, WORK_STEALING_WORKER, WORK_SHARING_WORKER;

        PoolCore pool() {
            return this == WORK_STEALING_WORKER ? WorkStealingPool.builder().workers(1).build()
                    : WorkSharingPool.builder().workers(1).build();
        }
    }
}
