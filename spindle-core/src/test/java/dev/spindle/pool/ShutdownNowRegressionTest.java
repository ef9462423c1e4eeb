/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review (session 28) of the lifecycle under races: submissions against
 * {@code shutdownNow}. Each test failed on the code before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShutdownNowRegressionTest {

    /**
     * {@code shutdownNow}'s drain took a fork task out of a deque and returned it as not started
     * after checking that it was still NEW, without claiming it; a joiner runs the task it awaits
     * by reference while it is still queued on its worker (joins in another order than forks),
     * so it could start the task after that check. The task then both ran and was in the
     * returned list, which promises tasks that never started. Here each worker's tasks spawn 64
     * children and join them oldest first, so the awaited child is at the top of the deque,
     * where the drain takes first; the race showed in about one round in fifteen.
     */
    @Test
    void aForkTaskReturnedByShutdownNowIsNotRunByItsJoiner() throws Exception {
        int rounds = 400;
        long returnedInAll = 0;
        for (int round = 0; round < rounds; round++) {
            WorkStealingPool pool = WorkStealingPool.builder().workers(1 + round % 2)
                    .name("drain-vs-join-" + round).build();
            AtomicLong joinedBatches = new AtomicLong();
            AtomicInteger ranAfterReturn = new AtomicInteger();
            for (int root = 0; root < 2; root++) {
                pool.execute(() -> {
                    for (;;) {
                        List<Task<Integer>> children = new ArrayList<>(64);
                        try {
                            for (int i = 0; i < 64; i++) {
                                int v = i;
                                children.add(pool.spawn(() -> v));
                            }
                            for (Task<Integer> c : children) {
                                c.join();      // oldest first: not the fork stack's fast path
                            }
                        } catch (RejectedExecutionException | CancellationException stopped) {
                            return;            // shutdownNow: spawn refused, or a join gave up
                        }
                        joinedBatches.incrementAndGet();
                    }
                });
            }
            while (joinedBatches.get() < 20) {
                Thread.onSpinWait();
            }
            List<Runnable> returned = pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("round %d terminated", round).isTrue();
            returnedInAll += returned.size();
            for (Runnable r : returned) {
                if (r instanceof ForkTask<?> child && child.isDone()) {   // a root may be returned too
                    ranAfterReturn.incrementAndGet();
                }
            }
            assertThat(ranAfterReturn.get())
                    .as("round %d: tasks shutdownNow returned as not started that ran (of %d returned)",
                            round, returned.size())
                    .isZero();
        }
        assertThat(returnedInAll).as("the drain met queued children").isPositive();
    }

    /** A task handed back by {@code shutdownNow} runs when its holder runs it, or can be cancelled. */
    @Test
    void aHandedBackForkTaskRunsWhenItsHolderRunsItOrCanBeCancelled() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("handed-back").build();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        Task<String> ran = pool.spawn(() -> "ran by the holder");
        Task<String> cancelled = pool.spawn(() -> "never");
        List<Runnable> returned = pool.shutdownNow();
        release.countDown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(returned).containsExactlyInAnyOrder((Runnable) ran, (Runnable) cancelled);
        assertThat(ran.isDone()).isFalse();
        assertThat(ran.toString()).contains("not started");
        ((Runnable) ran).run();
        assertThat(ran.join()).isEqualTo("ran by the holder");
        assertThat(cancelled.cancel(false)).isTrue();
        assertThat(cancelled.isCancelled()).isTrue();
    }
}
