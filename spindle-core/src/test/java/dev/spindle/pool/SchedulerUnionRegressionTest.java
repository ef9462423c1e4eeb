/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Scheduler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An owning {@link SchedulerUnion} whose member throws while it is being stopped. Its
 * {@code shutdown()} and {@code shutdownNow()} stopped at that member: the members after it were
 * never stopped, and the tasks {@code shutdownNow()} had drained from the members before it were
 * lost with the return value; {@code close()} went on past a member's exception but not past its
 * error, nor past a member whose {@code shutdown()} threw. Each test's Javadoc says what it saw
 * before the fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionRegressionTest {

    /**
     * A member that stops as asked and then throws {@code failure} from {@code shutdown()} and
     * {@code shutdownNow()}, as an executor whose shutdown hook fails, or that the caller may not
     * stop ({@link SecurityException}), does. It holds no tasks, so it terminates at once.
     */
    private static final class FailingMember extends AbstractExecutorService implements Scheduler {
        private final Throwable failure;
        private volatile boolean shutdown;

        FailingMember(Throwable failure) {
            this.failure = failure;
        }

        private RuntimeException fail() {
            if (failure instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) failure;
        }

        @Override
        public void execute(Runnable task) {
            throw new RejectedExecutionException("this member runs nothing");
        }

        @Override
        public void shutdown() {
            shutdown = true;
            throw fail();
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            throw fail();
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

    /**
     * Before: an owning union's {@code shutdownNow()} attached the tasks it had drained from the
     * members that stopped to the member's failure with {@code addSuppressed}, which does nothing
     * on an exception built with suppression disabled: the tasks were neither returned, nor
     * attached, nor run ("expected: a thrown exception that holds the drained task, but got:
     * RefusesSuppressed with no suppressed exceptions").
     */
    @Test
    void shutdownNowKeepsTheDrainedTasksWhenTheFailureRefusesSuppressedExceptions() throws Exception {
        // as some pre-allocated exceptions are made: it records no suppressed exception
        RuntimeException failure = new RuntimeException("a member could not be stopped", null, false, false) { };
        PinnedPool first = PinnedPool.builder().workers(1).build();
        SchedulerUnion union = SchedulerUnion.owning(first, new FailingMember(failure));
        CountDownLatch release = new CountDownLatch(1);
        try {
            Runnable queued = queueBehindARunningTask(union, release);

            Throwable thrown = catchThrowable(union::shutdownNow);

            assertThat(unstartedTasks(thrown))
                    .as("the drained task, reachable from what shutdownNow() threw: %s", thrown)
                    .containsExactly(queued);
            assertThat(causes(thrown)).as("the member's failure, reachable from what was thrown").contains(failure);
        } finally {
            release.countDown();
            first.shutdownNow();
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
            out.add(c);
        }
        out.addAll(Arrays.asList(t == null ? new Throwable[0] : t.getSuppressed()));
        return out;
    }


    /**
     * Runs a task on {@code union}'s first member that waits for {@code release}, then queues an
     * empty task behind it (which {@code shutdownNow()} drains) and returns that one.
     */
    private static Runnable queueBehindARunningTask(SchedulerUnion union, CountDownLatch release)
            throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
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
        return queued;
    }

    /** No spares: a task queued behind a waiting one stays queued (see StarvationWatch). */
    private static WorkStealingPool pool(String name) {
        return WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name(name).build();
    }

    /** The tasks of the {@link SchedulerUnion.UnstartedTasks} that {@code thrown} is or holds suppressed. */
    private static List<Runnable> unstartedTasks(Throwable thrown) {
        List<Runnable> tasks = new ArrayList<>();
        if (thrown == null) {
            return tasks;
        }
        if (thrown instanceof SchedulerUnion.UnstartedTasks u) {
            tasks.addAll(u.tasks());           // thrown in place of a failure that refused it
        }
        for (Throwable s : thrown.getSuppressed()) {
            if (s instanceof SchedulerUnion.UnstartedTasks u) {
                tasks.addAll(u.tasks());
            }
        }
        return tasks;
    }

    /**
     * Before: {@code shutdown()} threw the middle member's exception without calling the last
     * member's {@code shutdown()}, so that pool kept accepting tasks although the union that owns
     * it was shut down.
     */
    @Test
    void shutdownStopsEveryMemberWhenOneThrows() {
        WorkStealingPool first = pool("first");
        WorkStealingPool last = pool("last");
        SecurityException failure = new SecurityException("may not stop this member");
        SchedulerUnion union = SchedulerUnion.owning(first, new FailingMember(failure), last);
        try {
            Throwable thrown = catchThrowable(union::shutdown);
            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(thrown).as("what shutdown() threw").isSameAs(failure);
                soft.assertThat(first.isShutdown()).as("the member before the one that threw is shut down").isTrue();
                soft.assertThat(last.isShutdown()).as("the member after the one that threw is shut down").isTrue();
            });
        } finally {
            first.shutdownNow();
            last.shutdownNow();
        }
    }

    /**
     * Before: {@code shutdownNow()} threw the middle member's exception: the task it had already
     * drained from the first member was in neither a return value nor the exception, so the
     * caller could neither run nor cancel it, and the last member was never stopped.
     */
    @Test
    void shutdownNowStopsEveryMemberAndKeepsTheTasksItDrainedWhenOneThrows() throws Exception {
        WorkStealingPool first = pool("first");
        WorkStealingPool last = pool("last");
        IllegalStateException failure = new IllegalStateException("a member's shutdown hook failed");
        SchedulerUnion union = SchedulerUnion.owning(first, new FailingMember(failure), last);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Runnable queued = queueBehindARunningTask(union, release);

            Throwable thrown = catchThrowable(union::shutdownNow);

            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(thrown).as("what shutdownNow() threw").isSameAs(failure);
                soft.assertThat(thrown == null ? List.of() : unstartedTasks(thrown))
                        .as("the tasks drained before the member threw, attached to what it threw").containsExactly(queued);
                soft.assertThat(first.isShutdown()).as("the member before the one that threw is shut down").isTrue();
                soft.assertThat(last.isShutdown()).as("the member after the one that threw is shut down").isTrue();
            });
        } finally {
            release.countDown();
            first.shutdownNow();
            last.shutdownNow();
        }
    }

    /**
     * Before: {@code close()} began with {@code shutdown()}, which threw the first member's error
     * at once: the last member was neither shut down nor awaited. (Past that, its loop caught
     * {@code Exception} only, so an error from a member's {@code close()} stopped it too.)
     */
    @Test
    void closeStopsAndAwaitsEveryMemberWhenOneThrowsAnError() {
        WorkStealingPool last = pool("last");
        OutOfMemoryError failure = new OutOfMemoryError("unable to create native thread");
        SchedulerUnion union = SchedulerUnion.owning(new FailingMember(failure), last);
        try {
            Throwable thrown = catchThrowable(union::close);
            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(thrown).as("what close() threw").isSameAs(failure);
                soft.assertThat(last.isTerminated()).as("the member after the one that threw has terminated").isTrue();
            });
        } finally {
            last.shutdownNow();
        }
    }
}
