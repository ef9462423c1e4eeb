/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.Task;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fork/join worker counts the tasks it takes, while joining, from the worker running the
 * awaited task ({@code Worker.runnerHelps}, {@link HelpingJoinTest}), but {@link SchedulerStats}
 * did not report the count: no accessor, and not in the snapshot's {@code toString} (before the
 * fix this test did not compile, and with the accessor assertions left out the worker's line
 * lacked {@code runnerHelps=1}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatsRegressionTest {

    /**
     * The scene of {@code HelpingJoinTest.aJoinerRunsTheSubtasksOfTheTaskAPeerStole}: the root's
     * worker joins a task a peer stole and runs its subtask from the thief's deque, one runner
     * help; the other worker never joins. The snapshot reports that one help.
     */
    @Test
    void aHelpFromTheAwaitedTasksRunnerIsReportedInTheSnapshot() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch blockerRunning = new CountDownLatch(1);
            CountDownLatch releaseBlocker = new CountDownLatch(1);
            CountDownLatch stolenStarted = new CountDownLatch(1);
            CountDownLatch subtaskRan = new CountDownLatch(1);
            AtomicReference<Worker> joiner = new AtomicReference<>();
            pool.execute(() -> {                               // the future thief, held
                blockerRunning.countDown();
                LifecycleTest.await(releaseBlocker);
            });
            LifecycleTest.await(blockerRunning);

            Task<Boolean> root = pool.spawn(() -> {
                joiner.set(pool.currentWorker());
                Task<Boolean> stolen = pool.spawn(() -> {
                    pool.spawn(() -> {                          // only the helping joiner runs it
                        subtaskRan.countDown();
                        return null;
                    });
                    stolenStarted.countDown();
                    return subtaskRan.await(10, TimeUnit.SECONDS);
                });
                Task<Integer> second = pool.spawn(() -> 2);
                releaseBlocker.countDown();
                LifecycleTest.await(stolenStarted);
                return stolen.join() && second.join() == 2;
            });
            assertThat(root.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(joiner.get().runnerHelps()).as("the worker's own count").isEqualTo(1);

            SchedulerStats s = pool.stats();
            SchedulerStats.WorkerStats w = s.workers().get(joiner.get().index);
            assertThat(w.toString()).as("the joiner's line").contains("runnerHelps=1");
            assertThat(w.runnerHelps()).as("the joiner's runner helps").isEqualTo(1);
            assertThat(s.runnerHelps()).as("all workers' runner helps").isEqualTo(1);
        }
    }

    /** Schedulers that do not help report zero, and the eleven-counter constructor counts none. */
    @Test
    void schedulersThatDoNotHelpReportZero() {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build()) {
            assertThat(pool.stats().runnerHelps()).isZero();
        }
        assertThat(new SchedulerStats.WorkerStats(0, false, 1, 0, 0, 1, 0, 0, 1, 0, 1).runnerHelps()).isZero();
    }
}
