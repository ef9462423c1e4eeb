/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What code written for {@code java.util.concurrent} executors does inside a task, on every pool. */
class PoolIdiomsRegressionTest {

    /**
     * The JDK's behaviour the pools are held to below: a task that calls {@code shutdownNow()}
     * on its own executor is one of the running tasks it interrupts.
     */
    @Test
    void aThreadPoolExecutorInterruptsTheTaskThatCallsShutdownNow() throws Exception {
        ExecutorService jdk = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try {
            Future<Boolean> interrupted = jdk.submit(() -> {
                jdk.shutdownNow();
                return Thread.currentThread().isInterrupted();
            });
            assertThat(interrupted.get(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            jdk.shutdownNow();
        }
    }

    /**
     * {@code shutdownNow()} "interrupts running tasks", and the task that called it is one: it
     * was left uninterrupted, so a task that stops its own pool and then runs until interrupted
     * (or waits interruptibly) kept running, and the pool never terminated, where a
     * {@link ThreadPoolExecutor} interrupts it and terminates.
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void shutdownNowFromATaskInterruptsThatTaskToo(PoolKind kind) throws Exception {
        PoolCore pool = kind.build(kind.builder().workers(2).name(kind + "-stop-from-task"));
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                pool.shutdownNow();
                stopped.countDown();
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();           // runs until stopped, as a long computation would
                }
            });
            assertThat(stopped.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS))
                    .as("the task that called shutdownNow() was interrupted and the pool terminated: %s", pool)
                    .isTrue();
        } finally {
            for (Thread t : PoolKind.threads(pool)) {
                t.interrupt();                     // lets a pool that failed the test end
            }
        }
    }

    /**
     * A {@code cancel(true)} interrupts the thread running the task; a task that ignores the
     * interrupt returns with it still set. A worker that ran the task inline, inside a join of
     * the task that spawned it, went back to that outer task with the interrupt meant for the
     * cancelled one: its next wait threw {@link InterruptedException} though nobody had
     * interrupted it. A {@link ThreadPoolExecutor} runs the two on different threads and a
     * {@link java.util.concurrent.ForkJoinPool}'s cancel does not interrupt, so neither leaks it.
     */
    @Test
    void theInterruptOfACancelledTaskRunInsideAJoinDoesNotReachTheJoiningTask() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("cancel-inline").build()) {
            AtomicReference<Task<Integer>> inner = new AtomicReference<>();
            CountDownLatch innerRuns = new CountDownLatch(1);
            Future<String> outer = pool.submit(() -> {
                Task<Integer> t = pool.spawn(() -> {
                    innerRuns.countDown();
                    while (!inner.get().isCancelled()) {
                        Thread.onSpinWait();       // a computation that does not poll the interrupt
                    }
                    return 1;
                });
                inner.set(t);
                try {
                    t.join();                      // one worker: runs the spawned task inline
                    return "joined a value";
                } catch (CancellationException expected) {
                    return Thread.currentThread().isInterrupted() ? "joiner interrupted" : "joiner not interrupted";
                }
            });
            assertThat(innerRuns.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(inner.get().cancel(true)).isTrue();
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo("joiner not interrupted");
        }
    }

    /**
     * A pinned pool's {@code invokeAll} and {@code invokeAny}, called from one of its workers,
     * run the tasks on that worker: queued behind the caller, where they would be pinned, they
     * could never run while it waits. A union whose member 0 is that pool queued them there all
     * the same, through {@code execute}, and waited for good.
     */
    @Test
    void invokeAllAndInvokeAnyThroughAUnionFromAWorkerOfItsPinnedMemberReturn() throws Exception {
        PinnedPool pinned = PinnedPool.builder().workers(2).name("union-pinned").build();
        try {
            SchedulerUnion union = SchedulerUnion.of(pinned);
            List<Callable<Integer>> tasks = List.of(() -> 1, () -> 2);
            Future<Integer> all = pinned.submit(() -> union.invokeAll(tasks).get(1).get());
            Future<Integer> any = pinned.submit(() -> union.invokeAny(List.<Callable<Integer>>of(() -> 3)));
            Future<Integer> timed = pinned.submit(() -> union.invokeAll(tasks, 30, TimeUnit.SECONDS).get(0).get());
            assertThat(all.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(any.get(10, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(timed.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(union.routedCounts()).containsExactly(5L);
        } finally {
            pinned.shutdownNow();                  // interrupts waits that failed the test
        }
    }
}
