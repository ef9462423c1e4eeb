/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Await;
import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.SchedulerStats;
import dev.spindle.Spindle;
import dev.spindle.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sentences of the public Javadoc and of docs/ARCHITECTURE.md, each tested as written: the
 * documented guarantees audit. One test per promise; its name says which.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DocumentedGuaranteeRegressionTest {

    /**
     * WorkStealingPool's class overview and {@link Task}'s: a join on a worker waiting for a task
     * that runs on another worker does not hold back the pool's other work. The joiner itself
     * helps only with the awaited task's descendants (ARCHITECTURE.md, "Fork/join and joining");
     * for anything else the pool counts the joiner as blocked and a spare runs it.
     */
    @Test
    void aJoinWaitingForAStolenTaskLetsThePoolRunUnrelatedWorkMeanwhile() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("doc-join").build();
        try {
            CountDownLatch stolenStarted = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Thread> thief = new AtomicReference<>();
            Task<String> parent = pool.spawn(() -> {
                Task<String> child = pool.spawn(() -> {
                    thief.set(Thread.currentThread());
                    stolenStarted.countDown();
                    release.await();           // unseen by the pool: no spare for this one
                    return "child";
                });
                // wait (unseen by the pool) until the other worker has taken the child
                assertThat(stolenStarted.await(20, TimeUnit.SECONDS)).isTrue();
                return child.join() + "+parent";
            });
            assertThat(stolenStarted.await(20, TimeUnit.SECONDS)).isTrue();
            // unrelated work from outside, which the child waits for
            pool.execute(release::countDown);
            assertThat(parent.get(20, TimeUnit.SECONDS)).isEqualTo("child+parent");
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** PriorityPool's overview: shutdownNow "returns every accepted task that had not started, most urgent first". */
    @Test
    void priorityPoolShutdownNowReturnsTheQueuedTasksMostUrgentFirstThenInAcceptanceOrder() throws Exception {
        PriorityPool pool = PriorityPool.builder().workers(1).name("doc-priority").build();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                running.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            List<Runnable> tasks = new ArrayList<>();
            int[] priorities = {5, -3, 0, -3, 5, Integer.MIN_VALUE, Integer.MAX_VALUE, 0};
            for (int p : priorities) {
                Runnable r = new Named("p" + p + "#" + tasks.size());
                tasks.add(r);
                pool.execute(r, Hints.ofPriority(p));
            }
            List<Runnable> notStarted = pool.shutdownNow();
            assertThat(notStarted).extracting(Object::toString).containsExactly(
                    "p-2147483648#5", "p-3#1", "p-3#3", "p0#2", "p0#7", "p5#0", "p5#4", "p2147483647#6");
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * WorkSharingPool's overview: "a task submitted inside a blocking section goes to the shared
     * queue, not the slot", where another worker can take it while the section waits.
     */
    @Test
    void aWorkSharingTaskSubmittedInsideABlockingSectionGoesToTheSharedQueueNotTheSlot() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("doc-sharing").build();
        try {
            AtomicReference<SchedulerStats> inside = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> Spindle.blocking(() -> {
                pool.execute(done::countDown);
                inside.set(pool.stats());
            }));
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            SchedulerStats s = inside.get();
            assertThat(s.sharedQueued()).as("in the shared queue: %s", s).isEqualTo(1);
            assertThat(s.workers().get(0).queued()).as("not in the slot: %s", s).isZero();
        } finally {
            pool.close();
        }
    }

    /**
     * SchedulerUnion's overview: "A member's RejectedExecutionException reaches the caller
     * unchanged"; {@code routedCounts} counts the tasks routed to each member, so a refused one
     * is not among them.
     */
    @Test
    void aMembersRejectionReachesTheUnionsCallerUnchangedAndIsNotCountedAsRouted() {
        RejectedExecutionException refusal = new RejectedExecutionException("member 1 refuses");
        Scheduler refusing = task -> {
            throw refusal;
        };
        WorkSharingPool member0 = WorkSharingPool.builder().workers(1).name("doc-union-0").build();
        try (SchedulerUnion union = SchedulerUnion.of(member0, refusing)) {
            assertThatThrownBy(() -> union.execute(() -> { }, Hints.DEFAULT.withSchedulerIndex(1)))
                    .isSameAs(refusal);
            assertThat(union.routedCounts()).containsExactly(0L, 0L);
        } finally {
            member0.close();
        }
    }

    /**
     * {@code SchedulerUnion.routedCounts}: "the tasks routed to each member so far". A task the
     * member refuses is not routed there: {@code execute} counts a task only once the member took
     * it, and {@code invokeAll}/{@code invokeAny} of a worker of member 0 (which go to that pool's
     * own) must not count tasks the stopped member refused either.
     */
    @Test
    void tasksAStoppedMemberRefusesThroughInvokeAllOrInvokeAnyAreNotCountedAsRouted() throws Exception {
        PinnedPool pinned = PinnedPool.builder().workers(1).name("doc-union-routed").build();
        try {
            SchedulerUnion union = SchedulerUnion.of(pinned);
            List<java.util.concurrent.Callable<Integer>> tasks = List.of(() -> 1, () -> 2);
            CompletableFuture<List<Throwable>> refusals = new CompletableFuture<>();
            pinned.execute(() -> {
                pinned.shutdownNow();          // from its own task: the pool stops, this task runs on
                Thread.interrupted();          // shutdownNow's interrupt, meant for this task
                List<Throwable> thrown = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    try {
                        switch (i) {
                            case 0 -> union.execute(() -> { });
                            case 1 -> union.invokeAll(tasks);
                            default -> union.invokeAny(tasks);
                        }
                    } catch (Throwable t) {
                        thrown.add(t);
                    }
                }
                refusals.complete(thrown);
            });
            assertThat(refusals.get(10, TimeUnit.SECONDS)).hasSize(3)
                    .allSatisfy(t -> assertThat(t).isInstanceOf(RejectedExecutionException.class));
            assertThat(union.routedCounts()).as("nothing was routed: the member refused every task")
                    .containsExactly(0L);
        } finally {
            pinned.shutdownNow();
            assertThat(pinned.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * {@link Task#toCompletableFuture()}: "Completing or cancelling the returned future does not
     * affect the task."
     */
    @Test
    void completingOrCancellingATasksCompletableFutureViewDoesNotAffectTheTask() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("doc-view").build();
        try {
            CountDownLatch release = new CountDownLatch(1);
            Task<String> task = pool.spawn(() -> {
                release.await();
                return "real";
            });
            CompletableFuture<String> completed = task.toCompletableFuture();
            CompletableFuture<String> cancelled = task.toCompletableFuture();
            CompletableFuture<String> failed = task.toCompletableFuture();
            assertThat(completed.complete("fake")).isTrue();
            assertThat(cancelled.cancel(true)).isTrue();
            assertThat(failed.completeExceptionally(new IllegalStateException("fake"))).isTrue();
            assertThat(task.isDone()).isFalse();
            assertThat(task.isCancelled()).isFalse();
            release.countDown();
            assertThat(task.get(10, TimeUnit.SECONDS)).isEqualTo("real");
            assertThat(task.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("real");
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * {@link Spindle#blocking}: "Nested calls compensate once": a work-stealing worker inside two
     * nested sections counts as one blocked worker and has one spare started for it.
     */
    @Test
    void nestedBlockingSectionsCompensateOnce() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("doc-nested").build();
        try {
            AtomicReference<SchedulerStats> outer = new AtomicReference<>();
            AtomicReference<SchedulerStats> inner = new AtomicReference<>();
            Task<Integer> t = pool.spawn(() -> Spindle.blocking(() -> {
                outer.set(pool.stats());
                return Spindle.blocking(() -> {
                    inner.set(pool.stats());
                    return 42;
                });
            }));
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(outer.get().blockedWorkers()).as("outer %s", outer.get()).isEqualTo(1);
            assertThat(outer.get().liveWorkers()).as("outer %s", outer.get()).isEqualTo(2);
            assertThat(inner.get().blockedWorkers()).as("inner %s", inner.get()).isEqualTo(1);
            assertThat(inner.get().liveWorkers()).as("inner %s", inner.get()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * WorkStealingPool's overview and {@code invoke}'s {@code @throws}: "A join (or invoke,
     * parallelFor) waiting for a returned task ends with a CancellationException", here from a
     * thread outside the pool, whose task shutdownNow drains before it starts.
     */
    @Test
    void invokeAndParallelForFromOutsideEndWithCancellationWhenShutdownNowReturnsTheirTask() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name("doc-invoke").build();
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                busy.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            // a thread each: both callers block, and on a small machine the common pool (JDK 25)
            // has one worker, which left the second caller waiting behind the first
            Executor ownThread = r -> new Thread(r, "doc-invoke-caller").start();
            CompletableFuture<Object> invoked = CompletableFuture.supplyAsync(() -> pool.invoke(() -> "ran"), ownThread);
            CompletableFuture<Void> looped = CompletableFuture.runAsync(() -> pool.parallelFor(0, 10, i -> { }), ownThread);
            Await.until("both queued", () -> pool.stats().sharedQueued() == 2);
            List<Runnable> notStarted = pool.shutdownNow();
            assertThat(notStarted).hasSize(2);
            assertThatThrownBy(() -> invoked.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(java.util.concurrent.CancellationException.class);
            assertThatThrownBy(() -> looped.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(java.util.concurrent.CancellationException.class);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private record Named(String name) implements Runnable {
        @Override
        public void run() {
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
