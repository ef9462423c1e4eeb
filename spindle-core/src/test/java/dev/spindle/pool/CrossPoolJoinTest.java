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
 * as a worker of its own pool, which runs the task if nobody has started it and otherwise lets
 * its own pool compensate while it waits.
 */
class CrossPoolJoinTest {

    /**
     * The only worker of {@code other} is busy until the joiner returns, so the awaited task can
     * only run if the joiner, a worker of {@code mine}, runs it itself.
     */
    @Test
    @Timeout(30)
    void aJoinerFromAnotherPoolRunsTheTaskIfNobodyStartedIt() {
        try (WorkStealingPool mine = WorkStealingPool.builder().workers(1).name("mine").build();
             WorkStealingPool other = WorkStealingPool.builder().workers(1).name("other").build()) {
            CountDownLatch joined = new CountDownLatch(1);
            Task<Object> busy = other.spawn(() -> joined.await(20, TimeUnit.SECONDS));
            String ranOn = mine.invoke(() -> {
                Task<String> t = other.spawn(() -> Thread.currentThread().getName());
                String r = t.join();
                joined.countDown();
                return r;
            });
            assertThat(ranOn).startsWith("mine-");
            assertThat(busy.join()).isEqualTo(true);
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
