/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Task;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ComputeTaskTest {

    /** Forks both halves, as the fib benchmark does. */
    static final class Fib extends ComputeTask<Long> {
        private final int n;

        Fib(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n < 2) {
                return (long) n;
            }
            Fib a = new Fib(n - 1);
            Fib b = new Fib(n - 2);
            a.fork();
            b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }

    static final class Counting extends ComputeTask<Integer> {
        final AtomicInteger runs;

        Counting(AtomicInteger runs) {
            this.runs = runs;
        }

        @Override
        protected Integer compute() {
            return runs.incrementAndGet();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void recursiveTasksComputeTheRightResult(int workers) {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(workers).build()) {
            for (int n = 0; n <= 22; n++) {
                assertThat(pool.invoke(new Fib(n))).isEqualTo(fibSeq(n));
            }
            assertThat(pool.stats().completed()).isGreaterThan(2 * fibSeq(22));
        }
    }

    private static long fibSeq(int n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    @Test
    void spawnFromOutsideRunsInThePoolAndCompletesTheTask() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("ct").build()) {
            ComputeTask<String> t = new ComputeTask<>() {
                @Override
                protected String compute() {
                    return Thread.currentThread().getName();
                }
            };
            Task<String> handle = pool.spawn(t);
            assertThat(handle).isSameAs(t);
            assertThat(t.get(10, TimeUnit.SECONDS)).startsWith("ct-worker-");
            assertThat(t.toCompletableFuture().get()).startsWith("ct-worker-");
            assertThat(t.isDone()).isTrue();
        }
    }

    @Test
    void forkOutsideAWorkerIsRefusedWithAnExplanation() {
        assertThatThrownBy(() -> new Counting(new AtomicInteger()).fork())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("worker thread")
                .hasMessageContaining("pool.spawn(task)");
    }

    @Test
    void aTaskStartsAtMostOnce() {
        AtomicInteger runs = new AtomicInteger();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Counting t = new Counting(runs);
            assertThat(pool.invoke(t)).isEqualTo(1);
            assertThatThrownBy(() -> pool.spawn(t)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("once");
            assertThatThrownBy(t::invoke).isInstanceOf(IllegalStateException.class);
            Counting forkedTwice = new Counting(runs);
            assertThatThrownBy(() -> pool.invoke(() -> {
                forkedTwice.fork();
                return forkedTwice.fork();
            })).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(forkedTwice.join()).isEqualTo(2);
            assertThat(runs).hasValue(2);
        }
    }

    @Test
    void invokeRunsInTheCallerAndJoinersSeeTheOutcome() {
        Counting t = new Counting(new AtomicInteger(41));
        assertThat(t.invoke()).isEqualTo(42);
        assertThat(t.join()).isEqualTo(42);
        ComputeTask<Object> failing = new ComputeTask<>() {
            @Override
            protected Object compute() throws Exception {
                throw new java.io.IOException("disk on fire");
            }
        };
        assertThatThrownBy(failing::invoke).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(java.io.IOException.class);
        assertThatThrownBy(failing::get).isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("disk on fire");
    }

    /**
     * A thread that joins a task another thread runs through {@code invoke()} waits for the
     * outcome. The task was never forked, so it has no pool; the join used to take that for
     * "nothing to wait on" and report the running task as cancelled.
     */
    @Test
    void joiningATaskAnotherThreadRunsThroughInvokeWaitsForItsResult() throws Exception {
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        ComputeTask<String> t = new ComputeTask<>() {
            @Override
            protected String compute() throws Exception {
                started.countDown();
                release.await();
                return "done";
            }
        };
        Thread runner = new Thread(t::invoke, "invoker");
        runner.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        java.util.concurrent.CompletableFuture<String> joined =
                java.util.concurrent.CompletableFuture.supplyAsync(t::join, r -> new Thread(r, "joiner").start());
        java.util.concurrent.Future<String> got = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread th = new Thread(r, "getter");
            th.setDaemon(true);
            return th;
        }).submit(() -> t.get());
        Thread.sleep(50);                      // let both reach their wait (not needed for the result)
        release.countDown();
        assertThat(joined.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(got.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        runner.join(10_000);
    }

    /**
     * A {@link java.util.concurrent.CompletableFuture} view taken before the task is spawned
     * completes when the task runs; spawning used to overwrite the view's registration.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aViewTakenBeforeTheTaskStartsCompletesWithItsResult(boolean forkedByAWorker) throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            Counting t = new Counting(new AtomicInteger(6));
            java.util.concurrent.CompletableFuture<Integer> view = t.toCompletableFuture();
            if (forkedByAWorker) {
                pool.invoke(() -> t.fork().join());
            } else {
                pool.spawn(t).join();
            }
            assertThat(view.get(10, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }

    @Test
    void waitingForATaskNobodyStartedFailsInsteadOfHanging() {
        Counting t = new Counting(new AtomicInteger());
        assertThatThrownBy(t::join).isInstanceOf(IllegalStateException.class).hasMessageContaining("never forked");
        assertThatThrownBy(() -> t.get(1, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void failuresCompleteTheTaskExceptionally() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            ComputeTask<Integer> t = new ComputeTask<>() {
                @Override
                protected Integer compute() {
                    throw new IllegalArgumentException("bad input 7");
                }
            };
            assertThatThrownBy(() -> pool.invoke(t)).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(IllegalArgumentException.class)
                    .hasRootCauseMessage("bad input 7");
            assertThat(pool.stats().liveWorkers()).isEqualTo(2);
        }
    }

    @Test
    void aShutDownPoolRejectsTasksFromOutside() {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        pool.shutdown();
        assertThatThrownBy(() -> pool.spawn(new Counting(new AtomicInteger())))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> pool.spawn((ComputeTask<Integer>) null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
    }
}
