/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An owning {@link SchedulerUnion}'s {@code shutdownNow()} whose member's {@code shutdownNow()}
 * returned {@code null} (against its contract) threw the {@link NullPointerException} of the
 * union's own list, "Cannot invoke "java.util.Collection.toArray()" because "c" is null", which
 * named neither the member nor what it did. Now the exception names the member and says its
 * {@code shutdownNow()} returned null; the other members are stopped and the tasks drained from
 * them are still attached to it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionShutdownNowOfAMemberThatReturnsNullTest {

    /** A member whose {@code shutdownNow()} returns null. It holds no tasks. */
    private static final class NullReturningMember extends AbstractExecutorService implements Scheduler {
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable task) {
            throw new RejectedExecutionException("this member runs nothing");
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return null;
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }

        @Override
        public String toString() {
            return "the-null-member";
        }
    }

    @Test
    void theFailureNamesTheMemberAndKeepsTheOthersTasks() throws Exception {
        WorkStealingPool first = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name("first").build();
        WorkStealingPool last = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name("last").build();
        SchedulerUnion union = SchedulerUnion.owning(first, new NullReturningMember(), last);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        try {
            union.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Runnable queued = () -> { };
            union.execute(queued);

            Throwable thrown = catchThrowable(union::shutdownNow);

            assertThat(thrown).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("member 1")
                    .hasMessageContaining("the-null-member")
                    .hasMessageContaining("shutdownNow() returned null");
            List<Runnable> attached = new ArrayList<>();
            for (Throwable s : thrown.getSuppressed()) {
                if (s instanceof SchedulerUnion.UnstartedTasks u) {
                    attached.addAll(u.tasks());
                }
            }
            assertThat(attached).as("the task drained from the first member").containsExactly(queued);
            assertThat(last.isShutdown()).as("the member after it stopped").isTrue();
        } finally {
            release.countDown();
            first.shutdownNow();
            last.shutdownNow();
        }
    }
}
