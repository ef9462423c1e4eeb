/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SchedulerUnion#execute(Runnable, Hints)} counts a task as routed after its member
 * accepted it. The count is a {@link LongAdder}, whose add under contention allocates a cell
 * (an {@link OutOfMemoryError} on a full heap). That error went to the caller though the task
 * was queued and ran: a caller that retried ran it twice, and one that reported the task
 * refused was wrong. Now execute returns once the member accepted, and the count is kept all
 * the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionExecuteWhoseCountFailsTest {

    /** A counter whose next add fails as a full heap makes a contended LongAdder's fail. */
    static final class FailingOnce extends LongAdder {
        private static final long serialVersionUID = 1L;
        final AtomicBoolean armed = new AtomicBoolean(true);

        @Override
        public void add(long x) {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room for a counter cell (thrown by the test)");
            }
            super.add(x);
        }

        @Override
        public void increment() {
            add(1L);
        }
    }

    /** A member that only keeps what it is given. */
    static final class Recording implements Scheduler {
        final List<Runnable> accepted = new CopyOnWriteArrayList<>();

        @Override
        public void execute(Runnable task) {
            accepted.add(task);
        }
    }

    @Test
    void anAcceptedTaskIsNotReportedRefused() {
        Recording member = new Recording();
        SchedulerUnion union = SchedulerUnion.of(member);
        FailingOnce count = new FailingOnce();
        union.routed[0] = count;
        Runnable task = () -> { };
        Throwable thrown = null;
        try {
            union.execute(task);
        } catch (Throwable e) {
            thrown = e;
        }
        assertThat(count.armed).as("the count failed once").isFalse();
        assertThat(member.accepted).as("the member holds the task").containsExactly(task);
        // before: the OutOfMemoryError, with the task queued
        assertThat(thrown).as("what execute threw").isNull();
        assertThat(union.routedCounts()).as("the failed add is counted all the same").containsExactly(1L);
        union.execute(task);
        assertThat(union.routedCounts()).containsExactly(2L);
    }

    /** A caller that takes the error at its word and submits again: the task ran twice. */
    @Test
    void aRetryingCallerRunsItsTaskOnce() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
                SchedulerUnion union = SchedulerUnion.of(pool)) {
            FailingOnce count = new FailingOnce();
            union.routed[0] = count;
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch ran = new CountDownLatch(1);
            Runnable task = () -> {
                runs.incrementAndGet();
                ran.countDown();
            };
            int attempts = 0;
            for (boolean done = false; !done && attempts < 2; ) {
                attempts++;
                try {
                    union.execute(task);
                    done = true;
                } catch (OutOfMemoryError e) {
                    // refused, by all it says: try again
                }
            }
            assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(count.armed).as("the count failed once").isFalse();
            assertThat(runs).as("runs of the task (executes called: %d)", attempts).hasValue(1);
            assertThat(union.routedCounts()).containsExactly(1L);
        }
    }
}
