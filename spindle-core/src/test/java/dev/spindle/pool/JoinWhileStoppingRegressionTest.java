/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's join of a task running on another worker while the pool shuts down or stops: the
 * joiner must be told the task's real outcome, never "cancelled" about a task that then
 * completes with a value nobody receives.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JoinWhileStoppingRegressionTest {

    /** What the joining task saw: the child's value, or what its join threw. */
    private record Outcome(Task<Integer> child, Object joined) { }

    /**
     * Starts a task on a two-worker pool that spawns a child, waits until the other worker has
     * started it, and joins it; calls {@code stop} once the join waits, then lets the child
     * finish with 41.
     */
    private static Outcome joinAcross(WorkStealingPool pool, Runnable stop) throws Exception {
        CountDownLatch childStarted = new CountDownLatch(1);
        CountDownLatch releaseChild = new CountDownLatch(1);
        AtomicReference<Task<Integer>> child = new AtomicReference<>();
        AtomicReference<Worker> joiner = new AtomicReference<>();
        CompletableFuture<Object> joined = new CompletableFuture<>();
        pool.execute(() -> {
            try {
                Task<Integer> c = pool.spawn(() -> {
                    childStarted.countDown();
                    LifecycleTest.awaitIgnoringInterrupts(releaseChild);
                    return 41;
                });
                child.set(c);
                LifecycleTest.awaitIgnoringInterrupts(childStarted);   // taken by the other worker, not run inline
                joiner.set(pool.currentWorker());
                joined.complete(c.join());
            } catch (Throwable e) {
                joined.complete(e);
            }
        });
        assertThat(childStarted.await(30, TimeUnit.SECONDS)).as("the other worker started the child").isTrue();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (joiner.get() == null || joiner.get().joiningHint() != child.get()) {
            assertThat(System.nanoTime() - end).as("the join began waiting").isNegative();
            Thread.sleep(1);
        }
        stop.run();
        releaseChild.countDown();
        Object result = joined.get(30, TimeUnit.SECONDS);
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("terminated").isTrue();
        return new Outcome(child.get(), result);
    }

    /**
     * The other side of the two tests above: a join in a stopped pool must not wait for good on a
     * task that waits for an unstarted task on the joiner's own fork stack, which after
     * shutdownNow only the joiner runs, once its frame returns. Here the awaited task runs in
     * another pool and joins the joiner's fork. The join gives up, and then the awaited task
     * must be cancelled, not complete behind its joiner's back.
     */
    @Test
    void aJoinAfterShutdownNowDoesNotWaitForATaskThatWaitsForItsOwnFork() throws Exception {
        WorkStealingPool stopped = WorkStealingPool.builder().workers(1).name("join-own-fork").build();
        WorkStealingPool other = WorkStealingPool.builder().workers(1).name("join-own-fork-other").build();
        try {
            CountDownLatch otherStarted = new CountDownLatch(1);
            CountDownLatch goJoin = new CountDownLatch(1);
            AtomicReference<Task<Integer>> elsewhere = new AtomicReference<>();
            CompletableFuture<Object> joined = new CompletableFuture<>();
            stopped.execute(() -> {
                try {
                    Task<Integer> fork = stopped.spawn(() -> 41);  // on this worker's fork stack
                    elsewhere.set(other.spawn(() -> {
                        otherStarted.countDown();
                        return fork.join() + 1;
                    }));
                    LifecycleTest.awaitIgnoringInterrupts(goJoin);
                    joined.complete(elsewhere.get().join());
                } catch (Throwable e) {
                    joined.complete(e);
                }
            });
            assertThat(otherStarted.await(30, TimeUnit.SECONDS)).isTrue();
            stopped.shutdownNow();
            goJoin.countDown();
            assertThat(stopped.awaitTermination(30, TimeUnit.SECONDS)).as("the stopped pool terminated").isTrue();
            Object result = joined.get(30, TimeUnit.SECONDS);
            Task<Integer> e = elsewhere.get();
            if (result instanceof java.util.concurrent.CancellationException) {
                assertThat(e.isCancelled()).as("the join threw CancellationException; the task is %s", e).isTrue();
            } else {
                assertThat(result).as("what the join returned").isEqualTo(42);
            }
        } finally {
            other.shutdownNow();
        }
        assertThat(other.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    /** After plain shutdown() every accepted task runs, and its joiner gets its value. */
    @Test
    void aJoinDuringShutdownGetsTheValue() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("join-shutdown").build();
        Outcome o = joinAcross(pool, pool::shutdown);
        assertThat(o.joined()).as("what the join returned").isEqualTo(41);
        assertThat(o.child().join()).isEqualTo(41);
    }

    /**
     * After shutdownNow a worker's join of a task that had not started, on a busy peer's fork
     * stack (which the drain leaves to its owner), threw CancellationException; the peer then
     * ran the task in its stop phase and it completed with 41, which the joiner never got. The
     * join must get the value: the task was accepted and not returned, so it runs.
     */
    @Test
    void aJoinAfterShutdownNowOfATaskOnAPeersForkStackGetsTheValue() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("join-fork-stack").build();
        CountDownLatch joinerBusy = new CountDownLatch(1);
        CountDownLatch goJoin = new CountDownLatch(1);
        CountDownLatch releaseOwner = new CountDownLatch(1);
        AtomicReference<Task<Integer>> child = new AtomicReference<>();
        CountDownLatch childSpawned = new CountDownLatch(1);
        CompletableFuture<Object> joined = new CompletableFuture<>();
        pool.execute(() -> {
            joinerBusy.countDown();
            LifecycleTest.awaitIgnoringInterrupts(goJoin);   // a timed wait: the starvation watch leaves it be
            try {
                joined.complete(child.get().join());
            } catch (Throwable e) {
                joined.complete(e);
            }
        });
        assertThat(joinerBusy.await(30, TimeUnit.SECONDS)).isTrue();
        pool.execute(() -> {                   // the other worker: the first one is busy
            child.set(pool.spawn(() -> 41));   // onto this worker's fork stack
            childSpawned.countDown();
            LifecycleTest.awaitIgnoringInterrupts(releaseOwner);
        });
        assertThat(childSpawned.await(30, TimeUnit.SECONDS)).isTrue();
        pool.shutdownNow();
        goJoin.countDown();
        Object result;
        try {
            result = joined.get(30, TimeUnit.SECONDS);
        } finally {
            releaseOwner.countDown();
        }
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("terminated").isTrue();
        assertThat(result).as("what the join returned; the child is %s", child.get()).isEqualTo(41);
        assertThat(child.get().join()).isEqualTo(41);
    }

    /**
     * After shutdownNow a worker's join of a task that was running elsewhere (so not handed
     * back) threw CancellationException while the task then completed normally: the task was
     * not cancelled, a later join returned 41, and the joiner had been told "cancelled". The
     * task was not returned by shutdownNow, so it runs, and the join must get its value.
     */
    @Test
    void aJoinAfterShutdownNowOfATaskRunningElsewhereGetsTheValue() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("join-shutdown-now").build();
        Outcome o = joinAcross(pool, pool::shutdownNow);
        assertThat(o.joined()).as("what the join returned; the child is %s", o.child()).isEqualTo(41);
        assertThat(o.child().join()).isEqualTo(41);
    }

    /**
     * After shutdownNow of pool P, a worker of P joining a task of pool Q that had not started
     * (queued in Q behind Q's busy worker) ran it inline, on P's thread with P's shutdownNow
     * interrupt pending: the task of Q, which nobody stopped or cancelled, was interrupted by
     * the stop of P and failed with InterruptedException for every observer. Q runs its own
     * task; P's join waits for it (or, holding unstarted tasks, gives up), but leaves it to Q.
     */
    @Test
    void aStoppedPoolsJoinDoesNotRunAnotherPoolsTaskWithItsInterrupt() throws Exception {
        WorkStealingPool p = WorkStealingPool.builder().workers(1).name("stopped-joiner").build();
        WorkStealingPool q = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name("running-other").build();
        try {
            CountDownLatch qBusy = new CountDownLatch(1);
            CountDownLatch releaseQ = new CountDownLatch(1);
            q.execute(() -> {
                qBusy.countDown();
                LifecycleTest.awaitIgnoringInterrupts(releaseQ);   // timed: no spare, nothing else runs in q
            });
            assertThat(qBusy.await(30, TimeUnit.SECONDS)).isTrue();
            AtomicReference<String> ranOn = new AtomicReference<>();
            AtomicReference<Boolean> sawInterrupt = new AtomicReference<>();
            Task<Integer> other = q.spawn(() -> {
                ranOn.set(Thread.currentThread().getName());
                try {
                    Thread.sleep(200);         // shutdownNow's interrupt, if run on p's worker
                } catch (InterruptedException e) {
                    sawInterrupt.set(true);
                    throw e;
                }
                sawInterrupt.set(false);
                return 42;
            });
            AtomicReference<Worker> joiner = new AtomicReference<>();
            CompletableFuture<Object> joined = new CompletableFuture<>();
            p.execute(() -> {
                joiner.set(p.currentWorker());
                try {
                    joined.complete(other.join());
                } catch (Throwable e) {
                    joined.complete(e);
                }
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (joiner.get() == null || joiner.get().joiningHint() != other) {
                assertThat(System.nanoTime() - end).as("the join began waiting").isNegative();
                Thread.sleep(1);
            }
            Thread.sleep(20);                  // well into its wait
            p.shutdownNow();
            releaseQ.countDown();
            Object result = joined.get(30, TimeUnit.SECONDS);
            assertThat(other.toCompletableFuture().handle((v, e) -> v != null ? v : e).get(30, TimeUnit.SECONDS))
                    .as("the other pool's task, run on %s (the join got %s; interrupted: %s)",
                            ranOn.get(), result, sawInterrupt.get())
                    .isEqualTo(42);
            assertThat(ranOn.get()).as("the thread that ran the other pool's task").startsWith("running-other");
            assertThat(p.awaitTermination(30, TimeUnit.SECONDS)).as("the stopped pool terminated").isTrue();
        } finally {
            p.shutdownNow();
            q.shutdownNow();
        }
        assertThat(q.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
}
