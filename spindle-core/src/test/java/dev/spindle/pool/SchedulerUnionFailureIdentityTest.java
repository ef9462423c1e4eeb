/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Scheduler;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An owning {@link SchedulerUnion} gathers the failures of the members it stops, the first with
 * the later ones suppressed in it, each once. It looked for a repeated failure with the
 * failures' own {@code equals}: one whose {@code equals} throws escaped the loop, and the members
 * after it were never stopped (their threads ran on); one whose {@code equals} said it was equal
 * to an earlier, distinct failure was dropped, and the caller never saw it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionFailureIdentityTest {

    /** An exception whose {@code equals} compares messages, as some libraries' do. */
    static final class ByMessage extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ByMessage(String message) {
            super(message);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ByMessage b && Objects.equals(b.getMessage(), getMessage());
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(getMessage());
        }
    }

    /** An exception whose {@code equals} fails, as a buggy user class's may. */
    static final class BadEquals extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadEquals(String message) {
            super(message);
        }

        @Override
        public boolean equals(Object o) {
            throw new IllegalStateException("equals failed");
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Stops as asked, then throws {@code failure}; holds no tasks. */
    private static final class FailingMember extends AbstractExecutorService implements Scheduler {
        private final RuntimeException failure;
        private volatile boolean shutdown;

        FailingMember(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void execute(Runnable task) {
            throw new RejectedExecutionException("this member runs nothing");
        }

        @Override
        public void shutdown() {
            shutdown = true;
            throw failure;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            throw failure;
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
    }

    /** Before: {@code BadEquals}'s exception escaped, and the last member ran on. */
    @Test
    void aFailureWhoseEqualsThrowsDoesNotKeepTheLaterMembersRunning() {
        RuntimeException first = new IllegalStateException("first");
        first.addSuppressed(new IllegalArgumentException("a failure of its own"));
        BadEquals second = new BadEquals("second");
        PriorityPool last = PriorityPool.builder().workers(1).name("last").build();
        SchedulerUnion union = SchedulerUnion.owning(new FailingMember(first), new FailingMember(second), last);
        try {
            Throwable thrown = catchThrowable(union::shutdown);
            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(thrown).as("what shutdown() threw").isSameAs(first);
                soft.assertThat(last.isShutdown()).as("the member after the one that threw is shut down").isTrue();
                soft.assertThat(Arrays.stream(first.getSuppressed()).anyMatch(s -> s == second))
                        .as("the second failure is suppressed in the first").isTrue();
            });
        } finally {
            last.shutdownNow();
        }
    }

    /** Before: the third member's failure, equal to the second's by its {@code equals}, was dropped. */
    @Test
    void aDistinctFailureEqualToAnEarlierOneIsKept() {
        RuntimeException first = new IllegalStateException("first");
        ByMessage second = new ByMessage("hook failed");
        ByMessage third = new ByMessage("hook failed");
        SchedulerUnion union = SchedulerUnion.owning(new FailingMember(first), new FailingMember(second),
                new FailingMember(third));
        Throwable thrown = catchThrowable(union::shutdownNow);
        assertThat(thrown).isSameAs(first);
        assertThat(first.getSuppressed()).as("the later failures, each once").hasSize(2);
        assertThat(first.getSuppressed()[0]).isSameAs(second);
        assertThat(first.getSuppressed()[1]).isSameAs(third);
    }

    /** The same instance thrown by two members is still suppressed once. */
    @Test
    void oneInstanceThrownTwiceIsSuppressedOnce() {
        RuntimeException first = new IllegalStateException("first");
        ByMessage again = new ByMessage("again");
        SchedulerUnion union = SchedulerUnion.owning(new FailingMember(first), new FailingMember(again),
                new FailingMember(again));
        Throwable thrown = catchThrowable(union::shutdown);
        assertThat(thrown).isSameAs(first);
        assertThat(first.getSuppressed()).hasSize(1);
        assertThat(first.getSuppressed()[0]).isSameAs(again);
    }
}
