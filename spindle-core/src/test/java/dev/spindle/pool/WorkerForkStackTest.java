/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fork stack of {@link Worker}: a worker's newest fork tasks are kept out of its deque, but
 * they stay visible to idle workers, their order is the deque's, and {@code shutdownNow} does
 * not lose them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerForkStackTest {

    /** More fork tasks than the stack holds: the overflow goes to the deque, nothing is lost. */
    static final int MORE_THAN_THE_STACK = Worker.FORK_STACK_CAPACITY * 2 + 3;

    /**
     * The only queued task sits in the fork stack while its owner waits (without declaring a
     * blocking section) for that very task: an idle worker must take it from the stack. Were the
     * stack hidden from thieves, this would hang until the timeout.
     */
    @RepeatedTest(20)
    void anIdleWorkerTakesTheStackTaskOfABusyOwner() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            CountDownLatch ran = new CountDownLatch(1);
            AtomicReference<String> ranOn = new AtomicReference<>();
            String owner = pool.invoke(() -> {
                pool.spawn(() -> {
                    ranOn.set(Thread.currentThread().getName());
                    ran.countDown();
                    return null;
                });
                // not a join: the owner just waits, so only a thief can run the task
                if (!ran.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the stack task was never taken by the idle worker");
                }
                return Thread.currentThread().getName();
            });
            assertThat(ranOn.get()).isNotEqualTo(owner);
        }
    }

    /**
     * Several tasks in the fork stack (and, past its capacity, in the deque) while their owner
     * waits without joining: idle workers take every one of them, each exactly once.
     */
    @RepeatedTest(10)
    void idleWorkersTakeEveryTaskOfABusyOwnersStack() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            for (int n : new int[] {3, Worker.FORK_STACK_CAPACITY, MORE_THAN_THE_STACK}) {
                CountDownLatch ran = new CountDownLatch(n);
                AtomicInteger[] runs = new AtomicInteger[n];
                pool.invoke(() -> {
                    for (int i = 0; i < n; i++) {
                        AtomicInteger r = runs[i] = new AtomicInteger();
                        pool.spawn(() -> {
                            r.incrementAndGet();
                            ran.countDown();
                            return null;
                        });
                    }
                    if (!ran.await(30, TimeUnit.SECONDS)) {
                        throw new AssertionError(ran.getCount() + " of " + n + " stack tasks never taken by the idle worker");
                    }
                    return null;
                });
                for (AtomicInteger r : runs) {
                    assertThat(r.get()).isEqualTo(1);
                }
            }
        }
    }

    /**
     * Tasks joined in the order they were forked (oldest first), more of them than the fork
     * stack holds: each awaited task sits below newer ones, in the fork stack or the deque, and
     * the lone worker, with no spare to fall back on, must find and run it there itself.
     */
    @Test
    @Timeout(60)
    void tasksJoinedInForkOrderRunInlineOnALoneWorker() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            int n = MORE_THAN_THE_STACK;
            long sum = pool.invoke(() -> {
                List<Task<Integer>> tasks = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int v = i;
                    tasks.add(pool.spawn(() -> v));
                }
                long s = 0;
                for (Task<Integer> t : tasks) {
                    s += t.join();
                }
                return s;
            });
            assertThat(sum).isEqualTo((long) n * (n - 1) / 2);
        }
    }

    /** Runnables and fork tasks pushed by one worker run newest first, as one deque would. */
    @Test
    void mixedPushesKeepLifoOrderOnOneWorker() throws InterruptedException {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            StringBuffer order = new StringBuffer();
            CountDownLatch done = new CountDownLatch(4);
            pool.invoke(() -> {
                pool.spawn(() -> step(order, 'a', done));
                pool.execute(() -> step(order, 'b', done));
                pool.spawn(() -> step(order, 'c', done));
                pool.execute(() -> step(order, 'd', done));
                return null;
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(order.toString()).isEqualTo("dcba");
        }
    }

    private static Object step(StringBuffer order, char c, CountDownLatch done) {
        order.append(c);
        done.countDown();
        return null;
    }

    /** Many fork tasks and runnables, interleaved, from one worker: still newest first. */
    @Test
    void deepMixedPushesKeepLifoOrderOnOneWorker() throws InterruptedException {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            int n = MORE_THAN_THE_STACK * 2;
            List<Integer> order = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            CountDownLatch done = new CountDownLatch(n);
            pool.invoke(() -> {
                for (int i = 0; i < n; i++) {
                    int id = i;
                    Runnable step = () -> {
                        order.add(id);
                        done.countDown();
                    };
                    if (i % 5 == 4) {
                        pool.execute(step);
                    } else {
                        pool.spawn(() -> {
                            step.run();
                            return null;
                        });
                    }
                }
                return null;
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            List<Integer> expected = new java.util.ArrayList<>();
            for (int i = n - 1; i >= 0; i--) {
                expected.add(i);
            }
            assertThat(order).isEqualTo(expected);
        }
    }

    /**
     * shutdownNow from inside a task, with tasks in the fork stack and more in the deque: every
     * task is either returned or run, exactly once.
     */
    @RepeatedTest(20)
    void shutdownNowNeitherLosesNorDuplicatesTheStackTasks() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        int n = MORE_THAN_THE_STACK;
        AtomicInteger[] runs = new AtomicInteger[n];
        AtomicReference<List<Runnable>> returned = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        pool.execute(() -> {
            for (int i = 0; i < n; i++) {
                AtomicInteger r = runs[i] = new AtomicInteger();
                pool.spawn(() -> r.incrementAndGet());
            }
            returned.set(pool.shutdownNow());
            stopped.countDown();
        });
        assertThat(stopped.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        int ranTotal = 0;
        for (AtomicInteger r : runs) {
            assertThat(r.get()).isBetween(0, 1);
            ranTotal += r.get();
        }
        for (Runnable r : returned.get()) {
            r.run();                           // the caller runs what was returned
        }
        for (AtomicInteger r : runs) {
            assertThat(r.get()).as("each task runs exactly once, by the pool or the caller").isEqualTo(1);
        }
        assertThat(returned.get()).hasSize(n - ranTotal);
    }

    /** The stack's tasks are counted as queued in the stats. */
    @Test
    void statsCountTheStackTasks() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            long queued = pool.invoke(() -> {
                Task<Integer> t = pool.spawn(() -> 1);
                Task<Integer> u = pool.spawn(() -> 2);
                long q = pool.stats().queued();
                u.join();
                t.join();
                return q;
            });
            assertThat(queued).isEqualTo(2L);
        }
    }
}
