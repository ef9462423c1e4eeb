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
 * A join that helps (Worker.helpJoinSlowly) while {@code shutdownNow()} interrupts its worker:
 * a task it runs from within the wait must see that interrupt, as one run by any worker does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JoinInterruptRegressionTest {

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - end).as(what).isNegative();
            Thread.sleep(1);
        }
    }

    /**
     * Worker 1 joins T, which runs on worker 2 and has a subtask D on worker 2's fork stack,
     * hidden from the joiner's help by an older fork F that does not descend from T (help
     * looks at a peer's fork stack's oldest unstarted task only). shutdownNow
     * interrupts the joiner while it waits with nothing to run; then F is cancelled, D becomes
     * visible, and the joiner runs D from within its wait. D loops until interrupted: it must
     * see shutdownNow's interrupt, and the pool must terminate. The join held the interrupt in a
     * local variable while it helped, so D ran with a clear status until its own give-up bound.
     */
    @Test
    void aTaskRunWhileHelpingAJoinSeesShutdownNowsInterrupt() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0)
                .name("join-interrupt").build();
        CountDownLatch joinerStarted = new CountDownLatch(1);
        CountDownLatch tStarted = new CountDownLatch(1);
        CountDownLatch releaseT = new CountDownLatch(1);
        AtomicReference<Task<Integer>> t = new AtomicReference<>();
        AtomicReference<Task<Integer>> f = new AtomicReference<>();
        AtomicReference<Worker> joiner = new AtomicReference<>();
        CompletableFuture<Boolean> dSawInterrupt = new CompletableFuture<>();
        CompletableFuture<Object> joined = new CompletableFuture<>();
        try {
            pool.execute(() -> {
                try {
                    joiner.set(pool.currentWorker());
                    joinerStarted.countDown();
                    LifecycleTest.awaitIgnoringInterrupts(tStarted);
                    joined.complete(t.get().join());
                } catch (Throwable e) {
                    joined.complete(e);
                }
            });
            assertThat(joinerStarted.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch tQueued = new CountDownLatch(1);
            pool.spawn(() -> {                 // S, on the other worker
                LifecycleTest.awaitIgnoringInterrupts(tQueued);
                f.set(pool.spawn(() -> 0));    // oldest on this worker's fork stack: hides D
                return t.get().join();         // runs T here, as a recorded frame
            });
            t.set(pool.spawn(() -> {           // T: not S's child, so D's parent is T
                Task<Integer> d = pool.spawn(() -> {
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (!Thread.currentThread().isInterrupted()) {
                        if (System.nanoTime() - end > 0) {
                            dSawInterrupt.complete(false);
                            return 0;
                        }
                        Thread.onSpinWait();
                    }
                    dSawInterrupt.complete(true);
                    return 1;
                });
                tStarted.countDown();
                LifecycleTest.awaitIgnoringInterrupts(releaseT);
                return d.join();
            }));
            tQueued.countDown();
            assertThat(tStarted.await(30, TimeUnit.SECONDS)).isTrue();
            await(() -> joiner.get().joiningHint() == t.get(), "the join began waiting");
            Thread joinerThread = joiner.get().thread;

            pool.shutdownNow();
            // the join takes the interrupt off the thread as it parks, with nothing to run
            await(() -> !joinerThread.isInterrupted() || dSawInterrupt.isDone(), "the join to park again");
            f.get().cancel(false);             // D is now visible to the joiner's help
            assertThat(dSawInterrupt.get(30, TimeUnit.SECONDS))
                    .as("the task run from within the join saw shutdownNow's interrupt").isTrue();
            releaseT.countDown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("terminated").isTrue();
            assertThat(joined.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            releaseT.countDown();
            pool.shutdownNow();
        }
    }
}
