/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Task;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The fork/join user API ({@link ComputeTask}, {@link dev.spindle.Task} and its
 * {@link CompletableFuture} view) as code coming from {@code RecursiveTask} uses it.
 */
class ForkJoinApiRegressionTest {

    /** Counts its runs; returns the count after its own. */
    static final class Counting extends ComputeTask<Integer> {
        private final AtomicInteger runs;

        Counting(AtomicInteger runs) {
            this.runs = runs;
        }

        @Override
        protected Integer compute() {
            return runs.incrementAndGet();
        }
    }

    /**
     * {@code invoke()} of a task already spawned is a second start and is refused, as the class
     * Javadoc says. While the spawned task still waited in a queue it was run by the invoking
     * thread instead, so the same misuse threw or succeeded depending on whether a worker had
     * got to the task yet.
     */
    @Test
    void invokeOfATaskStillQueuedBySpawnIsRefused() throws Exception {
        // no spare worker, which could take the queued task while the only worker is held
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            CountDownLatch release = OnlyWorker.occupy(pool);
            AtomicInteger runs = new AtomicInteger();
            Counting t = new Counting(runs);
            pool.spawn(t);                     // queued: the only worker is busy
            try {
                assertThatThrownBy(t::invoke).isInstanceOf(IllegalStateException.class);
            } finally {
                release.countDown();
            }
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(runs).hasValue(1);
        }
    }

    /** The same for a task forked on a worker and invoked before the worker joins it. */
    @Test
    void invokeOfATaskForkedOnAWorkerIsRefused() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            AtomicInteger runs = new AtomicInteger();
            Object outcome = pool.invoke(() -> {
                Counting t = new Counting(runs);
                t.fork();
                try {
                    t.invoke();
                    return "invoked";
                } catch (IllegalStateException expected) {
                    return "refused, then joined " + t.join();
                }
            });
            assertThat(outcome).isEqualTo("refused, then joined 1");
            assertThat(runs).hasValue(1);
        }
    }

    /**
     * A computation that throws {@link CancellationException} (here: it joined a cancelled
     * subtask) fails; the task is not cancelled, and its view says the same: not cancelled,
     * {@code get()} an {@link ExecutionException}, {@code join()} a {@link CompletionException}.
     * The view stored the exception bare, and a {@code CompletableFuture} holding a bare
     * {@code CancellationException} is a cancelled one.
     */
    @Test
    void theViewOfATaskThatFailedWithACancellationExceptionIsNotCancelled() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            Task<Integer> t = pool.spawn(() -> {
                Counting sub = new Counting(new AtomicInteger());
                sub.cancel(false);
                return sub.join();             // throws CancellationException
            });
            assertThatThrownBy(t::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(CancellationException.class);
            assertThat(t.isCancelled()).isFalse();
            assertThatThrownBy(t::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(CancellationException.class);

            CompletableFuture<Integer> after = t.toCompletableFuture();
            assertThat(after.isCancelled()).isFalse();
            assertThat(after.isCompletedExceptionally()).isTrue();
            assertThatThrownBy(after::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(CancellationException.class);
            assertThatThrownBy(after::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(CancellationException.class);
        }
    }

    /** The same for a view taken before the computation failed (completed by the runner). */
    @Test
    void aViewTakenBeforeAFailureWithACancellationExceptionIsNotCancelled() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            CountDownLatch release = new CountDownLatch(1);
            Task<Integer> t = pool.spawn(() -> {
                release.await();
                throw new CancellationException("the computation's own");
            });
            CompletableFuture<Integer> view = t.toCompletableFuture();
            release.countDown();
            assertThatThrownBy(() -> view.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(CancellationException.class).hasMessage("the computation's own");
            assertThat(view.isCancelled()).isEqualTo(t.isCancelled()).isFalse();
        }
    }

    /** A cancelled task's view is cancelled, wherever the view was taken. */
    @Test
    void theViewOfACancelledTaskIsCancelled() {
        Counting t = new Counting(new AtomicInteger());
        CompletableFuture<Integer> before = t.toCompletableFuture();
        assertThat(t.cancel(true)).isTrue();
        assertThat(before.isCancelled()).isTrue();
        assertThat(t.toCompletableFuture().isCancelled()).isTrue();
        assertThatThrownBy(t::join).isInstanceOf(CancellationException.class);
    }

    /**
     * A {@link ComputeTask} given to {@code execute} (as {@code ForkJoinPool.execute(task)} is
     * used) is started: joining it while it waits in the queue waits for its result. It was
     * queued unforked, and a join meanwhile threw "never forked ... nothing will run it".
     */
    @Test
    void aComputeTaskGivenToExecuteCanBeJoinedWhileItIsQueued() throws Exception {
        // no spare worker, which could take the queued task while the only worker is held
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            CountDownLatch release = OnlyWorker.occupy(pool);
            AtomicInteger runs = new AtomicInteger();
            Counting t = new Counting(runs);
            pool.execute(t);                   // queued: the only worker is busy
            try {
                assertThat(t.isDone()).isFalse();
                // the worker is held, so a wait while the task is queued can only time out
                assertThatThrownBy(() -> t.get(50, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
                assertThatThrownBy(() -> pool.spawn(t)).isInstanceOf(IllegalStateException.class);
                CompletableFuture<Integer> joined = CompletableFuture.supplyAsync(t::join,
                        r -> new Thread(r, "joiner").start());
                release.countDown();
                assertThat(joined.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            } finally {
                release.countDown();
            }
            assertThat(runs).hasValue(1);
        }
    }

    /**
     * The tasks {@code shutdownNow} returns can be moved to another {@link WorkStealingPool} with
     * {@code execute}, and their futures complete there. They were queued as they were, handed
     * back, and the new pool's workers, which run only tasks not started, skipped them: the task
     * never ran and its {@code get()} never returned.
     */
    @Test
    void tasksThatShutdownNowReturnedRunWhenExecutedByAnotherPool() throws Exception {
        // no spare worker, which could run the tasks before shutdownNow returns them
        WorkStealingPool first = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        CountDownLatch busy = new CountDownLatch(1);
        first.spawn(() -> {
            busy.countDown();
            Thread.sleep(60_000);              // ended by shutdownNow's interrupt
            return null;
        });
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
        Task<Integer> spawned = first.spawn(() -> 42);
        Counting compute = new Counting(new AtomicInteger(6));
        first.spawn(compute);
        java.util.concurrent.Future<String> submitted = first.submit(() -> "submitted");
        java.util.List<Runnable> left = first.shutdownNow();
        assertThat(left).hasSize(3);
        try (WorkStealingPool second = WorkStealingPool.builder().workers(2).build()) {
            left.forEach(second::execute);
            assertThat(spawned.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(compute.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(submitted.get(10, TimeUnit.SECONDS)).isEqualTo("submitted");
        }
        assertThat(first.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
}
