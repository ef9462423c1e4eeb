/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Task}'s {@link Future} side called from a worker thread of a {@link WorkStealingPool}:
 * get() is interruptible, get(timeout) helps as get() does, invokeAny from a worker completes,
 * and get() reports a failed subtree's root cause as CompletableFuture.get() does.
 */
class TaskFutureContractTest {

    /**
     * Future.get() throws InterruptedException when the waiting thread is interrupted, and leaves
     * the awaited task running. On a worker, get() went into the join's helping wait, which holds
     * interrupts until the task completes: a task cancelled with interrupt while it waited in
     * get() kept waiting (here: until its awaited task was released).
     */
    @Test
    @Timeout(60)
    void getOnAWorkerThrowsInterruptedExceptionWhenItsThreadIsInterrupted() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            CountDownLatch slowRunning = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Task<Integer> slow = pool.submit(() -> {
                slowRunning.countDown();
                release.await(30, TimeUnit.SECONDS);
                return 1;
            });
            assertThat(slowRunning.await(10, TimeUnit.SECONDS)).isTrue();
            AtomicReference<Object> outcome = new AtomicReference<>();
            CountDownLatch aboutToGet = new CountDownLatch(1);
            CountDownLatch outerDone = new CountDownLatch(1);
            Task<?> outer = pool.submit(() -> {
                aboutToGet.countDown();
                try {
                    outcome.set(slow.get());
                } catch (Throwable t) {
                    outcome.set(t);
                }
                outerDone.countDown();
            });
            assertThat(aboutToGet.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(outer.cancel(true)).isTrue();
            boolean ended = outerDone.await(10, TimeUnit.SECONDS);
            Object seen = outcome.get();
            boolean slowDoneThen = slow.isDone();
            release.countDown();
            assertThat(ended).as("get() returned or threw within 10 s of the interrupt").isTrue();
            assertThat(seen).as("what get() ended with").isInstanceOf(InterruptedException.class);
            assertThat(slowDoneThen).as("the awaited task is left running").isFalse();
            assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    /**
     * Future.get(timeout) on a worker parked without helping, so a task queued on the caller
     * itself was never run: on a one-worker pool it always timed out, though get() and join()
     * return at once there.
     */
    @Test
    @Timeout(60)
    void timedGetOnAWorkerRunsATaskQueuedOnThatWorker() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Object r = pool.invoke(() -> {
                Task<Integer> child = pool.spawn(() -> 42);
                try {
                    return child.get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(r).isEqualTo(42);
        }
    }

    /** The same through AbstractExecutorService's timed invokeAll, which cancelled every task. */
    @Test
    @Timeout(60)
    void timedInvokeAllFromAWorkerRunsTheTasks() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            List<Future<Integer>> fs = pool.invoke(
                    () -> pool.invokeAll(List.<Callable<Integer>>of(() -> 1, () -> 2), 5, TimeUnit.SECONDS));
            assertThat(fs).noneMatch(Future::isCancelled);
            assertThat(fs.get(0).get()).isEqualTo(1);
            assertThat(fs.get(1).get()).isEqualTo(2);
        }
    }

    /**
     * invokeAny (AbstractExecutorService's, through an ExecutorCompletionService) blocks the
     * calling worker in a BlockingQueue, uncompensated, while the tasks wait in that worker's
     * own queue: on a one-worker pool it never returned (timed: TimeoutException).
     */
    @Test
    @Timeout(60)
    void invokeAnyFromAWorkerOfAOneWorkerPoolReturns() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Object r = pool.invoke(() -> {
                try {
                    return pool.invokeAny(List.<Callable<Integer>>of(() -> 7, () -> 7), 5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(r).isEqualTo(7);
        }
    }

    /**
     * Without spare workers nothing compensates a worker blocked in invokeAny, so on a one-worker
     * pool the tasks queued behind it never ran: the timed call threw TimeoutException, the
     * untimed one never returned.
     */
    @Test
    @Timeout(60)
    void invokeAnyFromAWorkerOfAPoolWithoutSparesReturns() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            Object timed = pool.invoke(() -> {
                try {
                    return pool.invokeAny(List.<Callable<Integer>>of(() -> 7, () -> 8), 5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(timed).isIn(7, 8);
            Future<Object> untimed = pool.submit(() -> {
                try {
                    return pool.invokeAny(List.<Callable<Integer>>of(() -> {
                        throw new IllegalStateException("first fails");
                    }, () -> 9));
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(untimed).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(9);
            Object allFail = pool.invoke(() -> {
                try {
                    return pool.invokeAny(List.<Callable<Integer>>of(() -> {
                        throw new IllegalStateException("both fail");
                    }));
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(allFail).isInstanceOf(ExecutionException.class);
            assertThat(((ExecutionException) allFail).getCause()).hasMessage("both fail");
        }
    }

    /** The leftmost leaf of a ComputeTask tree fails; its failure reaches the root through joins only. */
    static final class Node extends ComputeTask<Integer> {
        private final int depth;
        private final boolean fail;

        Node(int depth, boolean fail) {
            this.depth = depth;
            this.fail = fail;
        }

        @Override
        protected Integer compute() throws Exception {
            if (depth == 0) {
                if (fail) {
                    throw new IOException("leaf failed");
                }
                return 1;
            }
            Node left = new Node(depth - 1, fail);
            left.fork();
            return new Node(depth - 1, false).compute() + left.join();
        }
    }

    /**
     * A subtree's failure reaches the root's get() as ExecutionException with the leaf's
     * exception as cause, as ForkJoinTask.get() and this task's own toCompletableFuture().get()
     * report it; it was ExecutionException(CompletionException(IOException)).
     */
    @Test
    @Timeout(60)
    void getOfAComputeTaskWhoseSubtaskFailedHasTheLeafExceptionAsCause() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            for (int depth : new int[] {1, 3}) {
                Node root = new Node(depth, true);
                pool.spawn(root);
                ExecutionException viaGet = null;
                try {
                    root.get(10, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    viaGet = e;
                }
                ExecutionException viaView = null;
                try {
                    root.toCompletableFuture().get(10, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    viaView = e;
                }
                assertThat(viaView).isNotNull();
                assertThat(viaView.getCause()).isInstanceOf(IOException.class);
                assertThat(viaGet).isNotNull();
                assertThat(viaGet.getCause()).as("depth %d: get()'s cause", depth).isInstanceOf(IOException.class);
            }
        }
    }
}
