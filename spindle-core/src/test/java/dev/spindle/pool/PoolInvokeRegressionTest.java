/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the pools' invokeAll/invokeAny: each test failed on the code
 * before its fix (docs/measurements/2026-11-29-s26/pools-invoke-review-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolInvokeRegressionTest {

    /**
     * A work-sharing worker's submissions go to its own slot, which only it runs. invokeAny from
     * one of its tasks queued the tasks there and then blocked in the completion service's wait,
     * so the last task queued never ran: with one task, invokeAny never returned, whatever the
     * number of workers.
     */
    @Test
    void invokeAnyFromAWorkSharingWorkerReturns() {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).build();
        try {
            Future<Object> outcome = pool.submit(() -> {
                try {
                    return pool.invokeAny(List.<Callable<Integer>>of(() -> 42));
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(42);
        } finally {
            pool.shutdownNow();                // interrupts a worker left waiting
        }
    }

    /** As above for invokeAll: the last task sat in the caller's slot while it waited for it. */
    @Test
    void invokeAllFromAWorkSharingWorkerReturns() {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).build();
        try {
            Future<Object> outcome = pool.submit(() -> {
                try {
                    List<Integer> values = new ArrayList<>();
                    for (Future<Integer> f : pool.invokeAll(List.<Callable<Integer>>of(() -> 1, () -> 2))) {
                        values.add(f.get());
                    }
                    return values;
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(List.of(1, 2));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The same through a union: its invokeAny (AbstractExecutorService's) routed the task to the
     * member, into the calling worker's slot, and waited for it there, never returning.
     */
    @Test
    void invokeAnyOfAUnionFromAWorkerOfItsMemberReturns() {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).build();
        SchedulerUnion union = SchedulerUnion.of(pool);
        try {
            Future<Object> outcome = pool.submit(() -> {
                try {
                    return union.invokeAny(List.<Callable<Integer>>of(() -> 42));
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * invokeAny on a worker of a pool without spare workers runs the unstarted tasks itself. An
     * interrupt of the caller that arrived meanwhile did not end it: the next task ran with the
     * interrupt pending, consumed it (its sleep threw), and invokeAny reported that task's
     * failure as an ExecutionException instead of throwing InterruptedException.
     */
    @Test
    void invokeAnyWithoutSparesEndsOnTheCallersInterrupt() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        try {
            CountDownLatch entered = new CountDownLatch(1);
            AtomicReference<Thread> caller = new AtomicReference<>();
            AtomicBoolean go = new AtomicBoolean();
            Callable<Integer> first = () -> {
                caller.set(Thread.currentThread());
                entered.countDown();
                while (!go.get()) {             // does not look at the interrupt: it stays pending
                    Thread.onSpinWait();
                }
                throw new IllegalStateException("first fails");
            };
            Callable<Integer> second = () -> {
                Thread.sleep(TimeUnit.MINUTES.toMillis(1));
                return 2;
            };
            Future<Object> outcome = pool.submit(() -> {
                try {
                    return pool.invokeAny(List.of(first, second));
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            caller.get().interrupt();
            go.set(true);
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(10)).isInstanceOf(InterruptedException.class);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * invokeAny on a worker of a pool without spare workers runs the unstarted tasks itself. After
     * shutdownNow had drained some of them from the worker's deque and returned them as never
     * started, it went on running them (after the first task failed on shutdownNow's interrupt),
     * and returned the result of a task shutdownNow had handed back.
     */
    @Test
    void invokeAnyWithoutSparesRunsNoTaskThatShutdownNowReturned() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        try {
            CountDownLatch entered = new CountDownLatch(1);
            List<Callable<Integer>> tasks = new ArrayList<>();
            tasks.add(() -> {
                entered.countDown();
                new CountDownLatch(1).await();  // ends with shutdownNow's interrupt: a failure
                return -1;
            });
            for (int i = 1; i < 12; i++) {      // more than the fork stack holds: some wait in the deque
                int k = i;
                tasks.add(() -> k);
            }
            Future<Object> outcome = pool.submit(() -> {
                try {
                    return pool.invokeAny(tasks);
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            List<Runnable> returned = pool.shutdownNow();
            assertThat(returned).as("tasks shutdownNow drained").isNotEmpty();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(returned).as("tasks shutdownNow returned as not started, yet completed")
                    .noneMatch(r -> ((Future<?>) r).isDone() && !((Future<?>) r).isCancelled());
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(10))
                    .isInstanceOf(InterruptedException.class);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A pinned worker's submissions without a hint go to its own queue, so invokeAll and
     * invokeAny from one of its tasks queued their tasks behind the waiting task, and never
     * returned. They now run the tasks on the calling worker, where they were pinned.
     */
    @Test
    void invokeAllAndInvokeAnyFromAPinnedWorkerReturnOnItsThread() {
        PinnedPool pool = PinnedPool.builder().workers(2).build();
        try {
            Future<Object> outcome = pool.submit(() -> {
                Thread caller = Thread.currentThread();
                Callable<Thread> where = Thread::currentThread;
                List<Object> seen = new ArrayList<>();
                for (Future<Thread> f : pool.invokeAll(List.of(where, where))) {
                    seen.add(f.get() == caller);
                }
                for (Future<Thread> f : pool.invokeAll(List.of(where), 10, TimeUnit.SECONDS)) {
                    seen.add(f.get() == caller);
                }
                seen.add(pool.invokeAny(List.<Callable<Thread>>of(() -> {
                    throw new IllegalStateException("first fails");
                }, where)) == caller);
                seen.add(pool.invokeAny(List.of(where), 10, TimeUnit.SECONDS) == caller);
                return seen;
            });
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(List.of(true, true, true, true, true));
        } finally {
            pool.shutdownNow();
        }
    }
}
