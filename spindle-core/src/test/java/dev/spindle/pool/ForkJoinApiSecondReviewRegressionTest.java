/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.Hints;
import dev.spindle.Task;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a second review of the day's fork/join fixes found: {@code execute} of a
 * {@link WorkStealingPool} now spawns a {@link ComputeTask} and reclaims a task that
 * {@code shutdownNow} handed back, and both paths must keep the contracts they bypass.
 */
class ForkJoinApiSecondReviewRegressionTest {

    /** Appends its name to a shared log when it runs. */
    static final class Logging extends ComputeTask<String> {
        private final String name;
        private final Queue<String> log;

        Logging(String name, Queue<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        protected String compute() {
            log.add(name);
            return name;
        }
    }

    /**
     * A task handed back by {@code shutdownNow} and offered to a pool that is shut down too is
     * refused; it must stay handed back, so that a join waiting for it ends (as it does for a
     * handed-back task) and its holder may still run it. {@code execute} reclaimed it (back to
     * {@code NEW}) before the pool refused it, so it was left looking queued: a join waited for
     * ever.
     */
    @Test
    void aHandedBackTaskRefusedByAShutDownPoolStaysHandedBack() throws Exception {
        Task<Integer> t = handedBack();
        Runnable r = (Runnable) t;
        try (WorkStealingPool second = WorkStealingPool.builder().workers(1).build()) {
            second.shutdown();
            assertThatThrownBy(() -> second.execute(r)).isInstanceOf(RejectedExecutionException.class);
            assertThatThrownBy(() -> second.execute(r, Hints.DEFAULT))
                    .isInstanceOf(RejectedExecutionException.class);
        }
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(t::join).isInstanceOf(CancellationException.class));
        assertThat(((ForkTask<?>) t).isHandedBack()).isTrue();
        r.run();                              // the holder still may
        assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo(42);
    }

    /**
     * A {@linkplain Hints#yielding() yielding} {@link ComputeTask} executed by a worker goes
     * behind the worker's other work, as any yielding task does. Spawned instead, "hints aside",
     * it went onto the worker's own stack, newest first, and ran before the work it was to let
     * through.
     */
    @Test
    void aYieldingComputeTaskExecutedByAWorkerRunsAfterTheWorkersOtherTasks() throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            Logging yielding = new Logging("yielding", log);
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(() -> {
                    log.add("plain");
                    done.countDown();
                });
                pool.execute(yielding, Hints.DEFAULT.withYielding(true));
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();  // executed after yielding
            assertThat(yielding.get(10, TimeUnit.SECONDS)).isEqualTo("yielding");
            assertThat(log).containsExactly("plain", "yielding");
        }
    }

    /**
     * A {@link ComputeTask} is a {@code Runnable}, and every pool kind's {@code execute} takes
     * it and runs it. While it waits in the queue, a {@code get} or {@code join} must wait for
     * it (or time out), as for any task queued; only {@link WorkStealingPool} bound it, so on
     * the other kinds they threw "never forked, spawned or invoked, so nothing will run it".
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aComputeTaskGivenToExecuteOfAnyPoolKindIsWaitedForWhileQueued(PoolKind kind) throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        try (PoolCore pool = kind.create(1)) {
            CountDownLatch release = OnlyWorker.occupy(pool);
            Logging t = new Logging("ran", log);
            try {
                pool.execute(t);
                OnlyWorker.assertAGetWaitsWhileQueued(t);
            } finally {
                release.countDown();
            }
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(log).containsExactly("ran");
        }
    }

    /**
     * The same for {@code submit}: the pool runs the {@link ComputeTask} through the future it
     * returns, so the task's own {@code get} must wait for it meanwhile; it threw "never forked
     * ... nothing will run it", on every pool kind, the work-stealing one too. A pool that
     * refuses it leaves it unstarted, free to be spawned elsewhere.
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aComputeTaskGivenToSubmitOfAnyPoolKindIsWaitedForWhileQueued(PoolKind kind) throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        try (PoolCore pool = kind.create(1)) {
            CountDownLatch release = OnlyWorker.occupy(pool);
            Logging t = new Logging("ran", log);
            Logging u = new Logging("ran too", log);
            Future<?> f;
            Future<String> g;
            try {
                f = pool.submit(t);
                g = pool.submit(u, "result");
                for (Logging x : List.of(t, u)) {
                    OnlyWorker.assertAGetWaitsWhileQueued(x);
                }
            } finally {
                release.countDown();
            }
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(u.get(10, TimeUnit.SECONDS)).isEqualTo("ran too");
            assertThat(f.get(10, TimeUnit.SECONDS)).isNull();
            assertThat(g.get(10, TimeUnit.SECONDS)).isEqualTo("result");
            assertThat(log).containsExactlyInAnyOrder("ran", "ran too");

            pool.shutdown();
            Logging refused = new Logging("refused", log);
            assertThatThrownBy(() -> pool.submit(refused)).isInstanceOf(RejectedExecutionException.class);
            try (WorkStealingPool other = WorkStealingPool.builder().workers(1).build()) {
                assertThat(other.invoke(refused)).isEqualTo("refused");
            }
        }
    }

    /** A task of a work-stealing pool that {@code shutdownNow} handed back, not started. */
    private static Task<Integer> handedBack() throws InterruptedException {
        try (WorkStealingPool first = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            CountDownLatch busy = new CountDownLatch(1);
            first.execute(() -> {
                busy.countDown();
                try {
                    new CountDownLatch(1).await();     // until shutdownNow interrupts it
                } catch (InterruptedException stopped) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            Task<Integer> t = first.spawn(() -> 42);   // queued behind the busy worker
            assertThat(first.shutdownNow()).containsExactly((Runnable) t);
            return t;
        }
    }

    /**
     * A task handed back by {@code shutdownNow}, moved to another pool of any kind with
     * {@code execute} or {@code submit} (which runs it), is queued there: a join waiting for it
     * waits for that run, and ends with its value. Only {@link WorkStealingPool#execute}
     * reclaimed it; elsewhere it stayed handed back while it waited, and a join threw "pool
     * stopped ... shutdownNow() returned it not started" although it was about to run.
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aHandedBackTaskMovedToAnyPoolKindIsJoinedWhileQueued(PoolKind kind) throws Exception {
        for (boolean submit : new boolean[] {false, true}) {
            Task<Integer> t = handedBack();
            try (PoolCore pool = kind.create(1)) {
                CountDownLatch release = OnlyWorker.occupy(pool);
                CompletableFuture<Integer> joined;
                try {
                    if (submit) {
                        pool.submit((Runnable) t);
                    } else {
                        pool.execute((Runnable) t);
                    }
                    joined = CompletableFuture.supplyAsync(t::join, r -> new Thread(r).start());
                    Throwable early = catchThrowable(() -> joined.get(100, TimeUnit.MILLISECONDS));
                    assertThat(early).as("a join while the task is queued (submit: " + submit + ")")
                            .satisfiesAnyOf(
                                    e -> assertThat(e).isNull(),
                                    e -> assertThat(e).isInstanceOf(TimeoutException.class));
                } finally {
                    release.countDown();
                }
                assertThat(joined.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            }
        }
    }

    /**
     * A {@link ComputeTask} handed back by {@code shutdownNow}, given back to its stopped pool by
     * one of the pool's own running tasks, is refused and stays handed back, spawned as it was:
     * moved to another pool afterwards, a join waits for its run there. The refused fork
     * unbound it, so it was left looking never forked: the join on the next pool threw "never
     * forked ... nothing will run it" while it waited there.
     */
    @Test
    void aHandedBackComputeTaskRefusedByItsStoppedPoolsWorkerCanStillBeMoved() throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Logging c = new Logging("moved", log);
        CompletableFuture<Throwable> refusal = new CompletableFuture<>();
        List<Runnable> back;
        try (WorkStealingPool first = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            CountDownLatch busy = new CountDownLatch(1);
            first.execute(() -> {
                busy.countDown();
                try {
                    new CountDownLatch(1).await();     // until shutdownNow interrupts it
                } catch (InterruptedException stopped) {
                    refusal.complete(catchThrowable(() -> first.execute(c)));
                }
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            first.spawn(c);
            back = first.shutdownNow();
            assertThat(back).containsExactly((Runnable) c);
            assertThat(refusal.get(10, TimeUnit.SECONDS)).isInstanceOf(RejectedExecutionException.class);
        }
        assertThatThrownBy(c::join).isInstanceOf(CancellationException.class);

        try (PoolCore second = PoolKind.SHARING.create(1)) {
            CountDownLatch release = OnlyWorker.occupy(second);
            try {
                second.execute(back.get(0));
                OnlyWorker.assertAGetWaitsWhileQueued(c);
            } finally {
                release.countDown();
            }
            assertThat(c.get(10, TimeUnit.SECONDS)).isEqualTo("moved");
            assertThat(log).containsExactly("moved");
        }
    }

    /**
     * A {@link ComputeTask} given to {@code execute} is started "as spawn starts it"
     * ({@link ComputeTask}); when {@code shutdownNow} returns it not started, a join waiting for
     * it ends with a {@link CancellationException}, as {@link WorkStealingPool} documents and does
     * (a join cannot be interrupted). The sharing, priority and pinned pools returned the task
     * still {@code NEW}, not handed
     * back, so the join waited for ever, uninterruptibly, unless the list's holder ran it. Found
     * by review (session 40).
     */
    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"SHARING", "PRIORITY", "PINNED"})
    void aJoinOfAComputeTaskThatShutdownNowReturnedEnds(PoolKind kind) throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Logging t = new Logging("ran", log);
        PoolCore pool = kind.create(1);
        try {
            OnlyWorker.occupy(pool);             // released by shutdownNow's interrupt
            pool.execute(t);
            CompletableFuture<String> joined = joinElsewhere(t);
            List<Runnable> back = pool.shutdownNow();
            assertThat(back).containsExactly(t);
            Throwable ended = catchThrowable(() -> joined.get(10, TimeUnit.SECONDS));
            assertThat(ended).as("the join of a task shutdownNow returned")
                    .isInstanceOf(CancellationException.class);   // a TimeoutException: still waiting
            assertThat(log).isEmpty();
            // the holder may still run it, once
            t.run();
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(log).containsExactly("ran");
        } finally {
            t.cancel(false);                     // frees a join still waiting (before the fix)
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /*
     * A ComputeTask given to submit (rather than execute) runs through the future submit wraps
     * around it; the task itself is bound (looks queued) meanwhile. When that future never ran
     * the task (it was cancelled, or shutdownNow returned it and an interrupted close cancelled
     * it), the task stayed bound and NEW: its join waited for good, uninterruptibly, on every pool
     * kind. The wrappers now pass a cancel or a hand-back on to the task. Found by review
     * (session 41); the eight cases below failed before the fix (the join was still waiting).
     */

    private static PoolCore onePool(PoolKind kind) {
        // no spare (nor starvation spare) of a work-stealing pool may take the queued task
        return kind == PoolKind.STEALING
                ? WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build() : kind.create(1);
    }

    /** Joins {@code t} on a thread of its own; the outcome lands in the returned future. */
    private static CompletableFuture<String> joinElsewhere(Logging t) {
        CompletableFuture<String> joined = new CompletableFuture<>();
        Thread joiner = new Thread(() -> {
            try {
                joined.complete(t.join());
            } catch (Throwable e) {
                joined.completeExceptionally(e);
            }
        }, "review-joiner");
        joiner.setDaemon(true);
        joiner.start();
        return joined;
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aJoinOfASubmittedComputeTaskWhoseFutureIsCancelledBeforeItRanEnds(PoolKind kind) throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Logging t = new Logging("ran", log);
        PoolCore pool = onePool(kind);
        try {
            CountDownLatch release = OnlyWorker.occupy(pool);
            Future<?> f = pool.submit(t);
            assertThat(f.cancel(false)).isTrue();
            CompletableFuture<String> joined = joinElsewhere(t);
            Throwable ended = catchThrowable(() -> joined.get(10, TimeUnit.SECONDS));
            assertThat(ended).as("the join of a submitted task whose future was cancelled before it ran")
                    .isInstanceOf(CancellationException.class);   // a TimeoutException: still waiting
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(log).isEmpty();
        } finally {
            t.cancel(false);                     // frees a join still waiting (before the fix)
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aJoinOfASubmittedComputeTaskWhoseFutureShutdownNowReturnedEnds(PoolKind kind) throws Exception {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Logging t = new Logging("ran", log);
        PoolCore pool = onePool(kind);
        try {
            OnlyWorker.occupy(pool);             // released by shutdownNow's interrupt
            Future<?> f = pool.submit(t);
            CompletableFuture<String> joined = joinElsewhere(t);
            List<Runnable> back = pool.shutdownNow();
            assertThat(back).containsExactly((Runnable) f);
            Throwable ended = catchThrowable(() -> joined.get(10, TimeUnit.SECONDS));
            assertThat(ended).as("the join of a submitted task whose future shutdownNow returned")
                    .isInstanceOf(CancellationException.class);   // a TimeoutException: still waiting
            assertThat(log).isEmpty();
            // the holder may still run it, once, through the future it was given
            ((Runnable) f).run();
            assertThat(f.get(10, TimeUnit.SECONDS)).isNull();
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(log).containsExactly("ran");
        } finally {
            t.cancel(false);                     // frees a join still waiting (before the fix)
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
