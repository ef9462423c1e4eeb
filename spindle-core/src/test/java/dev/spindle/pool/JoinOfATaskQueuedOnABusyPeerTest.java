/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker's join (here a timed {@code get}) of a task that a peer spawned and then blocked on,
 * outside a blocking section, with the task still unstarted on the peer's fork stack. The
 * joiner did not take it (only descendants of the awaited task were taken from peers), no idle
 * worker was woken for a peer's lone task, and once a spare from an earlier wait was live the
 * pool counted the blocked peer as running and started no spare for the joiner: the get waited
 * until the peer got back to its own task, here until its 2 s timeout, in a good part of the
 * rounds (26 of 60 on a 2-core machine). The joiner now takes the awaited task itself from where
 * a thief would take it.
 */
class JoinOfATaskQueuedOnABusyPeerTest {

    private static final int ROUNDS = 30;

    @Test
    void aWorkersGetOfATaskQueuedOnABlockedPeerRunsIt() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            int waitedOut = 0;
            for (int round = 0; round < ROUNDS; round++) {
                CountDownLatch peerWaits = new CountDownLatch(1);
                CompletableFuture<Task<Integer>> spawned = new CompletableFuture<>();
                pool.execute(() -> {
                    spawned.complete(pool.spawn(() -> 7));     // its lone task, on its fork stack
                    try {
                        peerWaits.await(20, TimeUnit.SECONDS); // a wait no pool sees, as a lock's
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                try {
                    Task<Integer> queued = spawned.get(10, TimeUnit.SECONDS);
                    Task<Object> joiner = pool.spawn(() -> {
                        try {
                            return queued.get(2, TimeUnit.SECONDS);
                        } catch (java.util.concurrent.TimeoutException e) {
                            return e;
                        }
                    });
                    Object got = joiner.get(20, TimeUnit.SECONDS);
                    if (!Integer.valueOf(7).equals(got)) {
                        waitedOut++;
                    }
                } finally {
                    peerWaits.countDown();
                }
            }
            assertThat(waitedOut).as("rounds whose get waited for the blocked peer instead of running its task")
                    .isZero();
        }
    }
}
