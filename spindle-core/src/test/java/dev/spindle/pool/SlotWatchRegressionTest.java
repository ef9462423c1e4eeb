/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * A work-sharing pool's task that submits work and then blocks on it without saying so: the
 * work went into the task's worker's slot, which wakes nobody and which only that worker took,
 * so it waited for the blocked task for good however many workers idled (the wait below timed
 * out and the task reported the work as never run). A parked worker now watches the slots and
 * moves a task stuck behind a long one to the shared queue.
 */
class SlotWatchRegressionTest {

    @RepeatedTest(5)
    void aTaskThatAwaitsALatchItsOwnSubmissionCountsDownIsNotStranded() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).build();
        try {
            Future<Boolean> outer = pool.submit(() -> {
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(done::countDown);
                return done.await(10, TimeUnit.SECONDS);
            });
            assertThat(outer.get(30, TimeUnit.SECONDS)).as("the submitted task ran while its submitter waited").isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCompletableFutureJoinedInsideATaskCompletes() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).build();
        try {
            Future<Integer> outer = pool.submit(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).get(10, TimeUnit.SECONDS) + 1);
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Three of four workers blocked this way at once, round after round: the watcher role passes
     * from worker to worker, and no task is stranded. (Not more blockers than workers less one:
     * then their submissions would queue behind blockers, as in any fixed-size pool.)
     */
    @Test
    void roundsOfTasksThatBlockOnTheirOwnSubmissionsAllComplete() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(4).build();
        try {
            AtomicInteger ran = new AtomicInteger();
            int rounds = 10;
            for (int r = 0; r < rounds; r++) {
                CompletableFuture<?>[] round = new CompletableFuture<?>[3];
                for (int i = 0; i < round.length; i++) {
                    round[i] = CompletableFuture.supplyAsync(() -> {
                        CountDownLatch done = new CountDownLatch(1);
                        pool.execute(() -> {
                            ran.incrementAndGet();
                            done.countDown();
                        });
                        try {
                            return done.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                    }, pool);
                }
                CompletableFuture.allOf(round).get(60, TimeUnit.SECONDS);
                for (CompletableFuture<?> f : round) {
                    assertThat(f.get()).as("round %d: a submitted task ran while its submitter waited", r).isEqualTo(true);
                }
            }
            assertThat(ran.get()).isEqualTo(rounds * 3);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The watcher takes only what waits behind a long task: a chain of short hand-offs keeps its
     * slot. Counted as moves from one thread to another, not hops off the first thread: one move
     * the machine forces (the chain's thread descheduled for longer than the watch interval, on a
     * loaded machine) then counts once, not for every hop after it; a watcher that took short
     * hand-offs moves the chain thousands of times.
     */
    @Test
    void aChainOfShortHandOffsStaysOnItsWorker() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).build();
        try {
            AtomicInteger moves = new AtomicInteger();
            CountDownLatch end = new CountDownLatch(1);
            pool.execute(() -> hop(pool, Thread.currentThread(), 10_000, moves, end));
            assertThat(end.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(moves.get()).as("moves of the chain between threads in 10,000 hops").isLessThanOrEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void hop(WorkSharingPool pool, Thread previous, int left, AtomicInteger moves, CountDownLatch end) {
        Thread self = Thread.currentThread();
        if (self != previous) {
            moves.incrementAndGet();
        }
        if (left == 0) {
            end.countDown();
        } else {
            pool.execute(() -> hop(pool, self, left - 1, moves, end));
        }
    }
}
