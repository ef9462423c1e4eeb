/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Second review of {@code SchedulerUnion.routedCounts} for {@code invokeAll}/{@code invokeAny}
 * called from a worker of member 0 (session 34): the fix counted all {@code tasks.size()} tasks
 * whenever the member's call returned or threw a checked exception, though on those paths the
 * member may have started none of them (a timeout that had passed, an interrupt pending) or only
 * the first ({@code invokeAny} runs the tasks in order until one succeeds). The same call from
 * outside counts the tasks {@code execute} hands member 0, none of them when the timeout has
 * passed. The union now counts each task there as member 0 starts it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnionCountSecondReviewRegressionTest {

    /** Runs {@code body} on a worker of {@code pool} and returns what it returned or threw. */
    private static <T> T onWorker(ExecutorService pool, Callable<T> body) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        pool.execute(() -> {
            try {
                result.complete(body.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw e;
        }
    }

    /** {@code n} tasks that count their runs in {@code ran} and return their index. */
    private static List<Callable<Integer>> tasks(int n, AtomicInteger ran) {
        List<Callable<Integer>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            out.add(() -> {
                ran.incrementAndGet();
                return index;
            });
        }
        return out;
    }

    private static void stop(ExecutorService pool) throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static List<ExecutorService> oneOfEachKind(String name) {
        return List.of(
                PinnedPool.builder().workers(1).name(name + "-pinned").build(),
                WorkStealingPool.builder().workers(1).name(name + "-stealing").build(),
                WorkSharingPool.builder().workers(1).name(name + "-sharing").build());
    }

    /**
     * A timed invokeAll whose timeout has passed at the call runs no task. From outside the union
     * hands member 0 none and counts none; from a worker of member 0 it counted all three.
     */
    @Test
    void aTimedInvokeAllWhoseTimeoutHasPassedCountsNoTaskFromAWorkerAsFromOutside() throws Exception {
        for (ExecutorService pool : oneOfEachKind("union-count-timed-all")) {
            try {
                SchedulerUnion union = SchedulerUnion.of((dev.spindle.Scheduler) pool);
                AtomicInteger ran = new AtomicInteger();
                List<Future<Integer>> outside = union.invokeAll(tasks(3, ran), 0, TimeUnit.NANOSECONDS);
                assertThat(outside).hasSize(3).allSatisfy(f -> assertThat(f.isCancelled()).isTrue());
                assertThat(union.routedCounts()).as("%s, from outside", pool).containsExactly(0L);

                List<Future<Integer>> inside = onWorker(pool,
                        () -> union.invokeAll(tasks(3, ran), 0, TimeUnit.NANOSECONDS));
                assertThat(inside).hasSize(3).allSatisfy(f -> assertThat(f.isCancelled()).isTrue());
                assertThat(ran).as("%s: tasks run", pool).hasValue(0);
                assertThat(union.routedCounts()).as("%s, from a worker of member 0: no task ran", pool)
                        .containsExactly(0L);
            } finally {
                stop(pool);
            }
        }
    }

    /**
     * invokeAny on a worker of a pool without spares runs the tasks in order until one succeeds:
     * here only the first runs, and only it reached member 0. All three were counted.
     */
    @Test
    void anInvokeAnyOnAWorkerCountsOnlyTheTasksItRan() throws Exception {
        PinnedPool pinned = PinnedPool.builder().workers(1).name("union-count-any").build();
        try {
            SchedulerUnion union = SchedulerUnion.of(pinned);
            AtomicInteger ran = new AtomicInteger();
            assertThat(onWorker(pinned, () -> union.invokeAny(tasks(3, ran)))).isEqualTo(0);
            assertThat(ran).hasValue(1);
            assertThat(union.routedCounts()).as("one task ran").containsExactly(1L);

            // and a timed one whose timeout has passed runs the first only, as the JDK's starts
            // its first task whatever the timeout; it succeeds, so the others never start
            assertThat(onWorker(pinned, () -> union.invokeAny(tasks(3, ran), 0, TimeUnit.NANOSECONDS))).isEqualTo(0);
            assertThat(ran).hasValue(2);
            assertThat(union.routedCounts()).as("the timed invokeAny ran its first task only").containsExactly(2L);
        } finally {
            stop(pinned);
        }
    }

    /**
     * An invokeAll of a worker whose interrupt is pending throws InterruptedException before a
     * {@link PinnedPool} runs any task (they would run on the caller): 0a0f4cde counted them all,
     * its comment saying "the member had taken them".
     */
    @Test
    void anInterruptedInvokeAllOnAPinnedWorkerThatRanNoTaskCountsNone() throws Exception {
        PinnedPool pinned = PinnedPool.builder().workers(1).name("union-count-interrupt").build();
        try {
            SchedulerUnion union = SchedulerUnion.of(pinned);
            AtomicInteger ran = new AtomicInteger();
            assertThatThrownBy(() -> onWorker(pinned, () -> {
                Thread.currentThread().interrupt();
                try {
                    return union.invokeAll(tasks(2, ran));
                } finally {
                    Thread.interrupted();      // not left to the worker
                }
            })).isInstanceOf(InterruptedException.class);
            assertThat(ran).hasValue(0);
            assertThat(union.routedCounts()).as("no task ran").containsExactly(0L);
        } finally {
            stop(pinned);
        }
    }

    /**
     * Found correct, pinned: the same untimed invokeAll counts every task from a worker as from
     * outside; an invokeAny whose every task fails counts them all (all ran); an empty
     * collection, a null element and an empty invokeAny count nothing and fail as documented;
     * the count never goes down (the Micrometer counter reads it).
     */
    @Test
    void everyTaskThatRanIsCountedOnceAndBadArgumentsCountNothing() throws Exception {
        for (ExecutorService pool : oneOfEachKind("union-count-pins")) {
            try {
                SchedulerUnion union = SchedulerUnion.of((dev.spindle.Scheduler) pool);
                AtomicInteger ran = new AtomicInteger();
                assertThat(union.invokeAll(tasks(4, ran))).hasSize(4);
                assertThat(union.routedCounts()).as("%s, from outside", pool).containsExactly(4L);
                assertThat(onWorker(pool, () -> union.invokeAll(tasks(4, ran)))).hasSize(4);
                assertThat(ran).hasValue(8);
                assertThat(union.routedCounts()).as("%s, from a worker", pool).containsExactly(8L);

                Callable<Integer> fails = () -> {
                    ran.incrementAndGet();
                    throw new IllegalStateException("expected");
                };
                assertThatThrownBy(() -> onWorker(pool, () -> union.invokeAny(List.of(fails, fails, fails))))
                        .isInstanceOf(ExecutionException.class).hasRootCauseMessage("expected");
                assertThat(ran).hasValue(11);
                assertThat(union.routedCounts()).as("%s: all three failed, all ran", pool).containsExactly(11L);

                assertThat(onWorker(pool, () -> union.invokeAll(List.<Callable<Integer>>of()))).isEmpty();
                assertThatThrownBy(() -> onWorker(pool, () -> union.invokeAny(List.<Callable<Integer>>of())))
                        .isInstanceOf(IllegalArgumentException.class);
                List<Callable<Integer>> withNull = new ArrayList<>(tasks(2, ran));
                withNull.add(null);
                assertThatThrownBy(() -> onWorker(pool, () -> union.invokeAll(withNull)))
                        .isInstanceOf(NullPointerException.class);
                assertThatThrownBy(() -> onWorker(pool, () -> union.invokeAny(withNull)))
                        .isInstanceOf(NullPointerException.class);
                assertThatThrownBy(() -> onWorker(pool, () -> union.invokeAll(withNull, 1, TimeUnit.SECONDS)))
                        .isInstanceOf(NullPointerException.class);
                assertThat(ran).as("%s: nothing of a refused call ran", pool).hasValue(11);
                assertThat(union.routedCounts()).as("%s", pool).containsExactly(11L);
            } finally {
                stop(pool);
            }
        }
    }
}
