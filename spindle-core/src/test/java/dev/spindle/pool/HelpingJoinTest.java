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
            AtomicReference<Worker> joiner = new AtomicReference<>();

            // Occupies one worker (the future thief) while the root fills the other's deque.
            pool.execute(() -> {
                blockerRunning.countDown();
                LifecycleTest.await(releaseBlocker);
            });
            LifecycleTest.await(blockerRunning);

            Task<Boolean> root = pool.spawn(() -> {
                String rootThread = Thread.currentThread().getName();
                joiner.set(pool.currentWorker());
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
            assertThat(joiner.get().runnerHelps())
                    .as("found by following the stolen task to its runner, not by a scan of the peers")
                    .isEqualTo(1);
            // and reported: SchedulerStats had no runner-help count before (StatsRegressionTest)
            SchedulerStats s = pool.stats();
            SchedulerStats.WorkerStats w = s.workers().get(joiner.get().index);
            assertThat(w.toString()).as("the joiner's line").contains("runnerHelps=1");
            assertThat(w.runnerHelps()).as("the joiner's runner helps").isEqualTo(1);
            assertThat(s.runnerHelps()).as("all workers' runner helps").isEqualTo(1);
        }
    }

    @Test
    void aJoinerFollowsTheChainOfJoinsToTheWorkerHoldingTheSubtasks() throws Exception {
        // Three workers, no spares. The root's worker joins S, stolen by a second worker. S joins
        // J, which runs on a third worker inside K (K, stolen from S, forked G and then J, and
        // runs J inline as it joins it). G descends from S but not from J: S's worker may not
        // run it, the third worker is busy in J until G has run, so only the root's worker can,
        // and it finds G two hops away: S's runner waits on J, and J's runner holds G.
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3).maxSpareWorkers(0).build()) {
            CountDownLatch releaseFirst = new CountDownLatch(1);
            CountDownLatch releaseSecond = new CountDownLatch(1);
            CountDownLatch stolenStarted = new CountDownLatch(1);
            CountDownLatch jRunning = new CountDownLatch(1);
            CountDownLatch gRan = new CountDownLatch(1);
            AtomicReference<Worker> rootWorker = new AtomicReference<>();
            AtomicReference<Worker> stolenWorker = new AtomicReference<>();
            AtomicReference<Worker> gWorker = new AtomicReference<>();
            AtomicReference<Task<Boolean>> jTask = new AtomicReference<>();
            holdTwoWorkers(pool, releaseFirst, releaseSecond);   // each steals one task when let go

            Task<Boolean> root = pool.spawn(() -> {
                rootWorker.set(pool.currentWorker());
                Task<Boolean> stolen = pool.spawn(() -> {                      // S
                    stolenWorker.set(pool.currentWorker());
                    stolenStarted.countDown();
                    Task<Boolean> k = pool.spawn(() -> {                       // K
                        pool.spawn(() -> {                                     // G
                            gWorker.set(pool.currentWorker());
                            gRan.countDown();
                            return null;
                        });
                        Task<Boolean> j = pool.spawn(() -> {                   // J
                            jRunning.countDown();
                            return gRan.await(10, TimeUnit.SECONDS);
                        });
                        jTask.set(j);
                        return j.join();                                       // runs J inline
                    });
                    releaseSecond.countDown();                                 // the third worker steals K
                    LifecycleTest.await(jRunning);
                    return jTask.get().join() && k.join();
                });
                releaseFirst.countDown();                                      // the second worker steals S
                LifecycleTest.await(stolenStarted);
                LifecycleTest.await(jRunning);
                Worker sRunner = stolenWorker.get();
                while (sRunner.joiningHint() != jTask.get()) {                 // S's worker waits on J
                    Thread.onSpinWait();
                }
                return stolen.join();
            });

            assertThat(root.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(gWorker.get()).as("G ran on the root's worker").isSameAs(rootWorker.get());
            assertThat(rootWorker.get().runnerHelps())
                    .as("G was found by following the runners (S's, then J's), not by a scan of the peers")
                    .isEqualTo(1);
        }
    }

    @Test
    void aJoinerParksWhileThePeersOnlyQueuedDescendantIsAlreadyRunning() throws Exception {
        // The root's worker joins S, stolen by a second worker; S forked X, which a third worker
        // took from S's fork stack and runs. X's entry stays in that fork stack until S's
        // worker pops it, and S blocks (not in a join). The joiner may run nothing: it must park,
        // not take X's entry again and again (which would burn a core until S went on); the
        // fork stack shows thieves only entries not yet claimed.
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3).maxSpareWorkers(0).build()) {
            CountDownLatch releaseFirst = new CountDownLatch(1);
            CountDownLatch releaseSecond = new CountDownLatch(1);
            CountDownLatch stolenStarted = new CountDownLatch(1);
            CountDownLatch forkedStarted = new CountDownLatch(1);
            CountDownLatch releaseAll = new CountDownLatch(1);
            AtomicReference<Thread> joiner = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicBoolean joining = new java.util.concurrent.atomic.AtomicBoolean();

            holdTwoWorkers(pool, releaseFirst, releaseSecond);

            Task<Boolean> root = pool.spawn(() -> {
                joiner.set(Thread.currentThread());
                Task<Boolean> stolen = pool.spawn(() -> {           // S
                    stolenStarted.countDown();
                    Task<Boolean> forked = pool.spawn(() -> {       // X
                        forkedStarted.countDown();
                        LifecycleTest.await(releaseAll);
                        return true;
                    });
                    releaseSecond.countDown();                       // the third worker takes X
                    LifecycleTest.await(forkedStarted);
                    LifecycleTest.await(releaseAll);                 // S blocks, X's entry queued
                    return forked.join();
                });
                releaseFirst.countDown();                            // the second worker takes S
                LifecycleTest.await(stolenStarted);
                LifecycleTest.await(forkedStarted);
                joining.set(true);
                return stolen.join();
            });

            boolean parked = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!parked && System.nanoTime() < deadline) {
                // a timed park is the join's wait; the latch waits before it are untimed
                parked = joining.get() && joiner.get().getState() == Thread.State.TIMED_WAITING;
                Thread.onSpinWait();
            }
            releaseAll.countDown();
            assertThat(root.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(parked).as("the joiner parked while nothing was left for it to run").isTrue();
        }
    }

    /** Occupies two of the pool's workers until their latches open; returns once both run. */
    private static void holdTwoWorkers(WorkStealingPool pool, CountDownLatch first, CountDownLatch second) {
        CountDownLatch running = new CountDownLatch(2);
        for (CountDownLatch release : new CountDownLatch[] {first, second}) {
            pool.execute(() -> {
                running.countDown();
                LifecycleTest.await(release);
            });
        }
        LifecycleTest.await(running);
    }
}
