/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker of one {@link WorkStealingPool} joining a task of another. A task does not record its
 * pool; the joiner waits in the way its own thread calls for (see {@code ForkTask}'s overview):
 * as a worker of its own pool, which runs the awaited task only if it is queued on the joiner
 * itself, and otherwise lets its own pool compensate while it waits.
 */
class CrossPoolJoinTest {

    /**
     * The awaited task is queued, not started, in the other pool, whose only worker is busy;
     * it waits for a task submitted to the joiner's pool, which has one worker, the joiner. Had
     * the joiner run the awaited task itself (as it did from 97f1458 to 5086699: a task that
     * nobody had started was run by its waiter, wherever it was queued), that task would block
     * the joiner's pool's only thread outside any blocking section, and the task it waits for
     * would never run. The joiner must wait, and its pool compensate.
     */
    @Test
    @Timeout(60)
    void aJoinerLeavesAnotherPoolsUnstartedTaskToThatPool() throws Exception {
        try (WorkStealingPool mine = WorkStealingPool.builder().workers(1).name("mine").build();
             WorkStealingPool other = WorkStealingPool.builder().workers(1).name("other").build()) {
            CountDownLatch otherBusy = new CountDownLatch(1);
            CountDownLatch opened = new CountDownLatch(1);
            Task<Boolean> busy = other.spawn(() -> {
                otherBusy.countDown();
                return opened.await(20, TimeUnit.SECONDS);   // holds other's only worker
            });
            assertThat(otherBusy.await(20, TimeUnit.SECONDS)).isTrue();
            Task<Boolean> queued = other.spawn(() -> opened.await(20, TimeUnit.SECONDS));
            Boolean result = mine.invoke(() -> {
                mine.execute(opened::countDown);         // needs a second thread of this pool
                return queued.join();
            });
            assertThat(result).as("the awaited task saw the gate opened").isTrue();
            assertThat(busy.join()).isTrue();
        }
    }

    /**
     * The awaited task runs on the other pool and waits for a task submitted to the joiner's
     * pool afterwards; the joiner's pool has one worker, the joiner, so that task runs only if
     * the joiner's pool starts a spare while its worker waits.
     */
    @Test
    @Timeout(30)
    void aJoinerWaitingForAnotherPoolsTaskLetsItsOwnPoolCompensate() {
        try (WorkStealingPool mine = WorkStealingPool.builder().workers(1).name("mine").build();
             WorkStealingPool other = WorkStealingPool.builder().workers(1).name("other").build()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch released = new CountDownLatch(1);
            Task<Boolean> remote = other.spawn(() -> {
                running.countDown();
                return released.await(20, TimeUnit.SECONDS);
            });
            Boolean result = mine.invoke(() -> {
                assertThat(running.await(20, TimeUnit.SECONDS)).isTrue();
                mine.execute(released::countDown);    // needs a second thread of this pool
                return remote.join();
            });
            assertThat(result).isTrue();
        }
    }
}
