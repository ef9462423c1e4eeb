/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Spindle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task entering a blocking section has its worker's slot task moved to the shared queue. The
 * slot was emptied first; an {@link OutOfMemoryError} from the queue's offer then lost that task
 * for good, and left the worker counted inside a blocking section that never began; from the
 * watcher, which moves a slot task stuck behind a task that blocks unseen, it lost it too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkSharingHandOffThatFailsTest {

    @AfterEach
    void clearSeam() {
        WorkSharingPool.beforeHandOff = null;
    }

    /** Before: the slot task never ran ({@code ran.await} returned false). */
    @Test
    void aSlotTaskWhoseHandOffFailsStillRuns() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        WorkSharingPool.beforeHandOff = () -> {
            if (failOnce.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room to queue the slot task (thrown by the test)");
            }
        };
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        AtomicBoolean submitsToSlotAfter = new AtomicBoolean();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("failed-handoff").build()) {
            CountDownLatch outerDone = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    PoolWorker w = pool.currentWorker();
                    pool.execute(ran::countDown);          // into this worker's slot
                    seen.set(catchThrowable(() -> Spindle.blocking(() -> { })));
                    // the section never began: this worker is not inside one, so its
                    // submissions go to its slot again
                    submitsToSlotAfter.set(w.blockingDepth == 0);
                } finally {
                    outerDone.countDown();
                }
            });
            assertThat(outerDone.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(seen.get()).as("the caller is told").isInstanceOf(OutOfMemoryError.class);
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the slot task ran").isTrue();
            assertThat(submitsToSlotAfter.get()).as("no blocking section left counted").isTrue();
        }
    }

    /** Before: the slot task never ran ({@code ran.await} returned false). */
    @Test
    void aSlotTaskTheWatcherFailsToMoveStillRuns() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        CountDownLatch thrown = new CountDownLatch(1);
        WorkSharingPool.beforeHandOff = () -> {
            if (failOnce.compareAndSet(true, false)) {
                thrown.countDown();
                throw new OutOfMemoryError("no room to queue the slot task (thrown by the test)");
            }
        };
        CountDownLatch ran = new CountDownLatch(1);
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("failed-watch").build()) {
            pool.execute(() -> {
                pool.execute(ran::countDown);          // into this worker's slot
                try {
                    // blocks unseen, the slot task behind it: only the watcher can move it
                    ran.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(thrown.await(30, TimeUnit.SECONDS)).as("the watcher tried to move the task").isTrue();
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the slot task ran").isTrue();
        }
    }

    /** Before: the earlier slot task never ran ({@code ran.await} returned false). */
    @Test
    void aSlotTaskDisplacedByASubmissionThatFailsStillRuns() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean();
        WorkSharingPool.beforeHandOff = () -> {
            if (failNext.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room to queue the slot task (thrown by the test)");
            }
        };
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        AtomicBoolean refusedRan = new AtomicBoolean();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("failed-displace").build()) {
            pool.execute(() -> {
                pool.execute(ran::countDown);          // into this worker's slot
                failNext.set(true);
                // displaces the first to the shared queue, which has no room
                seen.set(catchThrowable(() -> pool.execute(() -> refusedRan.set(true))));
            });
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the earlier slot task ran").isTrue();
            assertThat(seen.get()).as("the caller is told").isInstanceOf(OutOfMemoryError.class);
        }
        assertThat(refusedRan).as("the refused task did not run").isFalse();
    }

    /** Before: the fourth slot task in a row, and the task queued behind it, never ran. */
    @Test
    void aSlotTaskThatYieldsToTheSharedQueueWithoutRoomStillRuns() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean();
        WorkSharingPool.beforeHandOff = () -> {
            if (failNext.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room to queue the slot task (thrown by the test)");
            }
        };
        CountDownLatch ran = new CountDownLatch(2);
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("failed-yield").build()) {
            Runnable fourth = ran::countDown;
            Runnable third = () -> {
                failNext.set(true);                    // the fourth yields to the shared queue
                pool.execute(fourth);
            };
            Runnable second = () -> pool.execute(third);
            Runnable first = () -> pool.execute(second);
            pool.execute(() -> {
                pool.execute(ran::countDown, dev.spindle.Hints.DEFAULT.withYielding(true));   // waits in the shared queue
                pool.execute(first);
            });
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("both tasks ran").isTrue();
        }
    }
}
