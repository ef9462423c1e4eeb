/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A work-sharing pool's watcher moves a slot task stuck behind a long task to the shared queue
 * while it stays registered as parked. If the long task ended and its worker parked after
 * {@code shutdown()} while the slot task was in the watcher's hand (taken from the slot, not yet
 * queued), the quiet test found every worker parked and every queue empty: the pool terminated
 * and the other workers exited. The watcher then ran the task alone on the last thread; a task
 * that submits another and waits for it ({@code submit(..).get()}, which a two-worker pool
 * runs) waited for good there, and the pool never terminated.
 *
 * <p>The seam {@link WorkSharingPool#beforeHandOff} holds the watcher between its take and its
 * offer until the long task's worker has parked (or, before the fix, exited).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WatcherHandOffAsTheOwnerParksAfterShutdownTest {

    @Test
    void aSlotTaskInTheWatchersHandKeepsThePoolFromTerminatingWithoutIt() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("handoff-after-quiet").build();
        CountDownLatch releaseT = new CountDownLatch(1);
        CountDownLatch tDone = new CountDownLatch(1);
        CountDownLatch hookRan = new CountDownLatch(1);
        AtomicReference<Thread> tThread = new AtomicReference<>();
        AtomicReference<Object> xResult = new AtomicReference<>();
        AtomicBoolean fired = new AtomicBoolean();
        WorkSharingPool.beforeHandOff = () -> {
            if (Thread.currentThread() == tThread.get() || !fired.compareAndSet(false, true)) {
                return;
            }
            // the watcher holds the owner's slot task X, taken from the slot, not yet offered
            pool.shutdown();
            releaseT.countDown();
            try {
                tDone.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            Thread owner = tThread.get();
            while (owner.getState() == Thread.State.RUNNABLE) {   // until it parks, or exits
                LockSupport.parkNanos(1_000_000);                 // (a state, polled)
            }
            hookRan.countDown();
        };
        try {
            pool.execute(() -> {
                tThread.set(Thread.currentThread());
                pool.execute(() -> {                 // X, into this worker's slot
                    try {
                        xResult.set(pool.submit(() -> 42).get());
                    } catch (Exception e) {
                        xResult.set(e);
                    }
                });
                try {
                    releaseT.await();                // T runs on, unseen: the watcher moves X
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                tDone.countDown();
            });
            assertThat(hookRan.await(20, TimeUnit.SECONDS)).as("the watcher handed X off").isTrue();
            assertThat(pool.awaitTermination(20, TimeUnit.SECONDS))
                    .as("terminated (before the fix X waited for good on the last thread)").isTrue();
            assertThat(xResult.get()).isEqualTo(42);
        } finally {
            WorkSharingPool.beforeHandOff = null;
            pool.shutdownNow();
        }
    }
}
