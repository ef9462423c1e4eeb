/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 28, time arithmetic and extreme arguments), each test failing
 * before its fix. A timeout of {@code Long.MIN_VALUE} ns (what {@code TimeUnit} saturates any
 * hugely negative timeout to, e.g. {@code -Long.MAX_VALUE} days) made the deadline
 * {@code now + Long.MIN_VALUE}, 2^63 ns away: a nanosecond later {@code deadline - now}
 * overflows to almost {@link Long#MAX_VALUE}, so the waits that test the deadline by that
 * difference (and no {@code nanos <= 0} check first) took an already-passed timeout for one
 * about 292 years ahead. The JDK's timed waits treat any negative timeout as zero.
 */
class TimeArithmeticRegressionTest {

    private static final long MOST_NEGATIVE = Long.MIN_VALUE;

    /** An invokeAny's first task, which runs whatever the timeout: it fails, so the next is due. */
    private static final Callable<Integer> FAILS = () -> {
        throw new IllegalStateException("the first task fails");
    };

    /** A worker's {@code get} with an already-passed timeout on a task running elsewhere waited for it. */
    @Test
    void aWorkersGetWithTheMostNegativeTimeoutTimesOutAtOnce() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> blocked = pool.submit(() -> {
                started.countDown();
                release.await();
                return null;
            });
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            Future<Object> outcome = pool.submit(() -> {
                try {
                    return blocked.get(MOST_NEGATIVE, TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                    return e;
                }
            });
            assertThat(outcome).as("get(Long.MIN_VALUE, NANOSECONDS) on a worker")
                    .succeedsWithin(Duration.ofSeconds(3)).isInstanceOf(TimeoutException.class);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * invokeAny on a worker of a pool without spares checks the deadline before running each
     * task after the first (which runs whatever the timeout, as the JDK's first task starts):
     * {@code -1} ns times out once the first has failed, but {@code Long.MIN_VALUE} ns ran the
     * next task.
     */
    @Test
    void aWorkersInvokeAnyWithTheMostNegativeTimeoutTimesOutAsWithMinusOne() {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        try {
            AtomicInteger ran = new AtomicInteger();
            Callable<Integer> task = ran::incrementAndGet;
            Future<List<Object>> outcome = pool.submit(() -> {
                List<Object> seen = new ArrayList<>();
                for (long timeout : new long[] {-1L, MOST_NEGATIVE}) {
                    try {
                        seen.add(pool.invokeAny(List.of(FAILS, task), timeout, TimeUnit.NANOSECONDS));
                    } catch (Exception e) {
                        seen.add(e.getClass());
                    }
                }
                return seen;
            });
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(3)).asList()
                    .as("invokeAny with -1 ns, then Long.MIN_VALUE ns")
                    .containsExactly(TimeoutException.class, TimeoutException.class);
            assertThat(ran.get()).as("tasks run after the first").isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The same on a pinned worker, which runs invokeAll's and invokeAny's tasks itself (invokeAny's
     * first, failing, task runs whatever the timeout).
     */
    @Test
    void aPinnedWorkersInvokeAllAndInvokeAnyWithTheMostNegativeTimeoutRunNothing() {
        PinnedPool pool = PinnedPool.builder().workers(1).build();
        try {
            AtomicInteger ran = new AtomicInteger();
            Callable<Integer> task = ran::incrementAndGet;
            Future<List<Object>> outcome = pool.submit(() -> {
                List<Object> seen = new ArrayList<>();
                for (Future<Integer> f : pool.invokeAll(List.of(task, task), MOST_NEGATIVE, TimeUnit.NANOSECONDS)) {
                    seen.add(f.isCancelled());
                }
                try {
                    seen.add(pool.invokeAny(List.of(FAILS, task), MOST_NEGATIVE, TimeUnit.NANOSECONDS));
                } catch (Exception e) {
                    seen.add(e.getClass());
                }
                return seen;
            });
            assertThat(outcome).succeedsWithin(Duration.ofSeconds(3)).asList()
                    .as("invokeAll's futures cancelled, then invokeAny's outcome")
                    .containsExactly(true, true, TimeoutException.class);
            assertThat(ran.get()).as("tasks run").isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    /** A union not yet shut down polled for about 292 years instead of answering false at once. */
    @Test
    void aUnionsAwaitTerminationWithTheMostNegativeTimeoutAnswersAtOnce() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        SchedulerUnion union = SchedulerUnion.of(pool);
        AtomicReference<Object> answer = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                answer.set(union.awaitTermination(MOST_NEGATIVE, TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                answer.set(e);
            }
        }, "await-termination");
        try {
            waiter.start();
            waiter.join(3_000);                // a failure bound only
            assertThat(answer.get()).as("awaitTermination(Long.MIN_VALUE, NANOSECONDS)").isEqualTo(false);
        } finally {
            waiter.interrupt();
            waiter.join(5_000);
            pool.shutdownNow();
        }
    }
}
