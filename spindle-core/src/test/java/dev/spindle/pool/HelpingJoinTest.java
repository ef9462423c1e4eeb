/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A worker that joins a task a peer stole helps with that task's subtasks, which it can take
 * only from the top of the thief's deque; so a thief that steals a fork task must leave nothing
 * but that task's descendants above them (see {@code Worker.stealOnce}).
 */
class HelpingJoinTest {

    @Test
    void aJoinerRunsTheSubtasksOfTheTaskAPeerStole() throws Exception {
        // No spare workers: the join can progress only by helping.
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch blockerRunning = new CountDownLatch(1);
            CountDownLatch releaseBlocker = new CountDownLatch(1);
            CountDownLatch stolenStarted = new CountDownLatch(1);
            CountDownLatch subtaskRan = new CountDownLatch(1);
            AtomicReference<String> subtaskThread = new AtomicReference<>();

            // Occupies one worker (the future thief) while the root fills the other's deque.
            pool.execute(() -> {
                blockerRunning.countDown();
                LifecycleTest.await(releaseBlocker);
            });
            LifecycleTest.await(blockerRunning);

            Task<Boolean> root = pool.spawn(() -> {
                String rootThread = Thread.currentThread().getName();
                // The thief will find three tasks on this deque, oldest first.
                Task<Boolean> stolen = pool.spawn(() -> {
                    pool.spawn(() -> {            // the subtask only a helping joiner can run
                        subtaskThread.set(Thread.currentThread().getName());
                        subtaskRan.countDown();
                        return null;
                    });
                    stolenStarted.countDown();
                    // The thief blocks (not a join, so it helps nobody) until its subtask ran.
                    return subtaskRan.await(10, TimeUnit.SECONDS);
                });
                Task<Integer> second = pool.spawn(() -> 2);
                Task<Integer> third = pool.spawn(() -> 3);
                releaseBlocker.countDown();
                LifecycleTest.await(stolenStarted);
                boolean helped = stolen.join();
                return helped && second.join() + third.join() == 5
                        && rootThread.equals(subtaskThread.get());
            });

            assertThat(root.get(30, TimeUnit.SECONDS))
                    .as("the joiner ran the stolen task's subtask from the thief's deque")
                    .isTrue();
        }
    }
}
