/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.SchedulerStats;
import dev.spindle.async.WakerSemanticsTest.Blocker;
import dev.spindle.async.WakerSemanticsTest.Probe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AsyncRuntimeTest {

    static AsyncRuntime runtime(AsyncPolicy policy, int workers) {
        return AsyncRuntime.builder().workers(workers).policy(policy).name("rt-" + policy).build();
    }

    @Test
    void builderChecksItsParametersAndHasDefaults() {
        assertThatThrownBy(() -> AsyncRuntime.builder().workers(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> AsyncRuntime.builder().workers(AsyncRuntime.MAX_WORKERS + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> AsyncRuntime.builder().budget(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget");
        assertThatThrownBy(() -> AsyncRuntime.builder().name(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> AsyncRuntime.builder().policy(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("policy");
        try (AsyncRuntime rt = AsyncRuntime.builder().build()) {
            assertThat(rt.workers()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(rt.policy()).isEqualTo(AsyncPolicy.WORK_STEALING);
            assertThat(rt.budget).isEqualTo(128);
            assertThat(rt.stats().workers()).hasSize(rt.workers());
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void runsManyTasksFromOutsideAndTheirResultsArrive(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 3)) {
            List<JoinHandle<Integer>> hs = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                int v = i;
                hs.add(rt.spawn(cx -> Poll.ready(v)));
            }
            for (int i = 0; i < hs.size(); i++) {
                assertThat(hs.get(i).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(i);
            }
            Integer r = rt.run(cx -> Poll.ready(7));
            assertThat(r).isEqualTo(7);
            assertThat(hs.get(0).toCompletableFuture().get(WAIT_S, TimeUnit.SECONDS)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void tasksSpawnedFromInsideATaskRunAndCanBeAwaited(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            AtomicReference<String> childThread = new AtomicReference<>();
            int sum = rt.run(new AsyncTask<Integer>() {
                final List<JoinHandle<Integer>> children = new ArrayList<>();

                @Override
                public Poll<Integer> poll(Context cx) {
                    if (children.isEmpty()) {
                        for (int i = 1; i <= 10; i++) {
                            int v = i;
                            children.add(rt.spawn(c2 -> {
                                childThread.set(Thread.currentThread().getName());
                                return Poll.ready(v);
                            }));
                        }
                    }
                    int s = 0;
                    for (JoinHandle<Integer> h : children) {
                        Poll<Integer> p = h.poll(cx);
                        if (p.isPending()) {
                            return Poll.pending();
                        }
                        s += p.value();
                    }
                    return Poll.ready(s);
                }
            });
            assertThat(sum).isEqualTo(55);
            assertThat(childThread.get()).startsWith("rt-" + policy + "-worker-");
        }
    }

    /**
     * On one worker, a task awaiting another that waits for an outside event: if awaiting
     * blocked the worker, the awaited task could never run.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aJoinHandleIsAnAsyncTaskThatAwaitsWithoutBlocking(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            Probe child = new Probe();
            JoinHandle<Integer> ch = rt.spawn(child);
            child.awaitPolls(1);
            AtomicInteger parentPolls = new AtomicInteger();
            JoinHandle<String> parent = rt.spawn(cx -> {
                parentPolls.incrementAndGet();
                Poll<Integer> p = ch.poll(cx);
                return p.isReady() ? Poll.ready("child said " + p.value()) : Poll.pending();
            });
            WakerSemanticsTest.awaitIdle(parent);
            int before = parentPolls.get();
            String other = rt.run(cx -> Poll.ready("worker is free"));
            assertThat(other).isEqualTo("worker is free");
            child.finish = true;
            child.waker.wake();
            assertThat(parent.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("child said 2");
            assertThat(before).isEqualTo(1);
            assertThat(parentPolls.get()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aCancelledTaskIsNotPolledAgain(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            Probe p = new Probe();
            JoinHandle<Integer> h = rt.spawn(p);
            p.awaitPolls(1);
            assertThat(h.cancel(false)).isTrue();
            assertThat(h.cancel(false)).isFalse();
            assertThat(h.isCancelled()).isTrue();
            assertThat(h.isDone()).isTrue();
            assertThatThrownBy(h::get).isInstanceOf(CancellationException.class);
            WakerSemanticsTest.await(() -> h.state() == TaskCell.DONE, "the cancelled task retired");
            p.waker.wake();
            String barrier = rt.run(cx -> Poll.ready("barrier"));
            assertThat(barrier).isEqualTo("barrier");
            assertThat(p.polls.get()).isEqualTo(1);

            // cancelled while queued, before its first poll
            Blocker b = new Blocker();
            rt.spawn(b);
            b.awaitStarted();
            Probe q = new Probe();
            JoinHandle<Integer> qh = rt.spawn(q);
            assertThat(qh.cancel(true)).isTrue();
            b.release();
            WakerSemanticsTest.await(() -> qh.state() == TaskCell.DONE, "the cancelled task retired");
            assertThat(q.polls.get()).isZero();
            assertThatThrownBy(() -> qh.toCompletableFuture().join())
                    .isInstanceOf(CancellationException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskThatThrowsCompletesItsHandleExceptionally(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            IllegalStateException boom = new IllegalStateException("boom");
            JoinHandle<Object> h = rt.spawn(cx -> {
                throw boom;
            });
            assertThatThrownBy(() -> h.get(WAIT_S, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCause(boom);
            assertThatThrownBy(() -> rt.run(cx -> {
                throw boom;
            })).isInstanceOf(CompletionException.class).hasCause(boom);
            // awaiting a failed task fails the awaiting task
            JoinHandle<Object> joiner = rt.spawn(h);
            assertThatThrownBy(() -> joiner.get(WAIT_S, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCause(boom);
            // the workers survive
            String after = rt.run(cx -> Poll.ready("still running"));
            assertThat(after).isEqualTo("still running");
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void runFromInsideAWorkerThrowsInsteadOfDeadlocking(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            JoinHandle<String> h = rt.spawn(cx -> {
                try {
                    rt.run(c2 -> Poll.ready("never"));
                    return Poll.ready("ran");
                } catch (IllegalStateException e) {
                    return Poll.ready("refused");
                }
            });
            assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("refused");
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void shutdownCompletesUnfinishedHandlesAndRejectsNewTasks(AsyncPolicy policy)
            throws Exception {
        AsyncRuntime rt = runtime(policy, 2);
        Probe waiting = new Probe();
        JoinHandle<Integer> wh = rt.spawn(waiting);
        waiting.awaitPolls(1);
        Blocker b = new Blocker();
        JoinHandle<Void> bh = rt.spawn(b);
        b.awaitStarted();
        List<JoinHandle<Integer>> queued = new ArrayList<>();
        Blocker b2 = new Blocker();
        JoinHandle<Void> b2h = rt.spawn(b2);
        b2.awaitStarted();                     // both workers are busy now
        for (int i = 0; i < 50; i++) {
            queued.add(rt.spawn(cx -> Poll.ready(1)));
        }
        Thread closer = new Thread(rt::close);
        closer.start();
        WakerSemanticsTest.await(rt::isShutdown, "shutdown to begin");
        assertThat(closer.isAlive()).isTrue(); // it waits for the polls under way
        b.release();
        b2.release();
        closer.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        assertThat(closer.isAlive()).isFalse();
        assertThat(rt.isTerminated()).isTrue();
        assertThat(bh.get()).isNull();          // the polls under way finished
        assertThat(b2h.get()).isNull();
        // Through the stack trace: from JDK 23, CompletableFuture.get wraps the cancellation in
        // a CancellationException("get") of its own whose cause carries the message.
        assertThatThrownBy(wh::get).isInstanceOf(CancellationException.class)
                .hasStackTraceContaining("shut down");
        for (JoinHandle<Integer> q : queued) {
            assertThat(q.isDone()).isTrue();
            assertThat(q.isCancelled()).isTrue();
        }
        assertThatThrownBy(() -> rt.spawn(cx -> Poll.ready(1)))
                .isInstanceOf(RejectedExecutionException.class);
        waiting.waker.wake();                  // a late wake-up is harmless
        rt.close();                            // idempotent
        assertThat(waiting.polls.get()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void shutdownFromInsideATaskDoesNotHang(AsyncPolicy policy) throws Exception {
        AsyncRuntime rt = runtime(policy, 2);
        Probe waiting = new Probe();
        JoinHandle<Integer> wh = rt.spawn(waiting);
        waiting.awaitPolls(1);
        JoinHandle<String> h = rt.spawn(cx -> {
            rt.shutdown();
            return Poll.ready("closed");
        });
        assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("closed");
        assertThatThrownBy(() -> wh.get(WAIT_S, TimeUnit.SECONDS))
                .isInstanceOf(CancellationException.class);
        WakerSemanticsTest.await(rt::isTerminated, "termination");
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void twoTasksShuttingDownAtOnceDoNotWaitForEachOther(AsyncPolicy policy) throws Exception {
        AsyncRuntime rt = runtime(policy, 2);
        java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
        AsyncTask<String> closer = cx -> {
            try {
                both.await(WAIT_S, TimeUnit.SECONDS); // one on each worker
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            rt.shutdown();
            return Poll.ready("closed");
        };
        JoinHandle<String> h1 = rt.spawn(closer);
        JoinHandle<String> h2 = rt.spawn(closer);
        assertThat(h1.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("closed");
        assertThat(h2.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("closed");
        WakerSemanticsTest.await(rt::isTerminated, "termination");
    }

    /** More children than a local deque holds: the overflow goes to the injector, none is lost. */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void localQueueOverflowLosesNothing(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            int n = AsyncRuntime.LOCAL_CAPACITY + 5_000;
            AtomicInteger ran = new AtomicInteger();
            List<JoinHandle<Void>> hs = new ArrayList<>();
            rt.run(cx -> {
                for (int i = 0; i < n; i++) {
                    hs.add(rt.spawn(c2 -> {
                        ran.incrementAndGet();
                        return Poll.ready(null);
                    }));
                }
                return Poll.ready(null);
            });
            for (JoinHandle<Void> h : hs) {
                h.get(WAIT_S, TimeUnit.SECONDS);
            }
            assertThat(ran.get()).isEqualTo(n);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void theBudgetIsFreshForEachPoll(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).budget(5).build()) {
            List<Integer> granted = new ArrayList<>();
            rt.run(cx -> {
                int n = 0;
                while (cx.consumeBudget()) {
                    n++;
                }
                assertThat(cx.consumeBudget()).isFalse();
                granted.add(n);
                if (granted.size() < 3) {
                    cx.waker().wake();
                    return Poll.pending();
                }
                return Poll.ready(null);
            });
            assertThat(granted).containsExactly(5, 5, 5);
        }
    }

    /**
     * On one worker, a task that wakes itself on every poll must not starve a task spawned
     * after it (from outside, or from inside a task), nor one woken by another thread.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskThatKeepsWakingItselfDoesNotStarveOthers(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger spins = new AtomicInteger();
            AsyncTask<Integer> busy = cx -> {
                spins.incrementAndGet();
                while (cx.consumeBudget()) {
                    // some work that is always ready
                }
                if (stop.get()) {
                    return Poll.ready(spins.get());
                }
                cx.waker().wake();
                return Poll.pending();
            };
            // spawned from outside
            JoinHandle<Integer> b1 = rt.spawn(busy);
            WakerSemanticsTest.await(() -> spins.get() > 10, "the busy task to spin");
            rt.spawn(cx -> {
                stop.set(true);
                return Poll.ready(null);
            });
            assertThat(b1.get(WAIT_S, TimeUnit.SECONDS)).isPositive();

            // woken from another thread
            stop.set(false);
            Probe p = new Probe();
            p.finish = false;
            JoinHandle<Integer> ph = rt.spawn(p);
            p.awaitPolls(1);
            int spun = spins.get();
            JoinHandle<Integer> b2 = rt.spawn(busy);
            WakerSemanticsTest.await(() -> spins.get() > spun + 10, "the busy task to spin");
            p.finish = true;
            p.waker.wake();
            assertThat(ph.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(2);

            // spawned from inside a task
            JoinHandle<Void> spawner = rt.spawn(cx -> {
                rt.spawn(c2 -> {
                    stop.set(true);
                    return Poll.ready(null);
                });
                return Poll.ready(null);
            });
            spawner.get(WAIT_S, TimeUnit.SECONDS);
            assertThat(b2.get(WAIT_S, TimeUnit.SECONDS)).isPositive();
        }
    }

    /**
     * A task woken while the worker that polled it last is busy goes to that worker's wake
     * channel, and an idle peer takes it from there.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aWakeUpForABusyWorkerIsTakenByAnIdlePeer(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            Blocker b1 = new Blocker();
            rt.spawn(b1);
            b1.awaitStarted();                 // one worker ("Y") is held; the other ("X") is free
            Probe p = new Probe();
            AtomicReference<String> pThread = new AtomicReference<>();
            JoinHandle<Integer> ph = rt.spawn(cx -> {
                pThread.set(Thread.currentThread().getName());
                return p.poll(cx);
            });
            CountDownLatch rHolds = new CountDownLatch(1);
            CountDownLatch rGo = new CountDownLatch(1);
            AtomicReference<Waker> rWaker = new AtomicReference<>();
            AtomicReference<String> rThread = new AtomicReference<>();
            AtomicInteger rPolls = new AtomicInteger();
            JoinHandle<Void> rh = rt.spawn(cx -> {
                rThread.set(Thread.currentThread().getName());
                rWaker.set(cx.waker());
                if (rPolls.incrementAndGet() == 1) {
                    return Poll.pending();
                }
                rHolds.countDown();
                try {
                    rGo.await(WAIT_S, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return Poll.ready(null);
            });
            p.awaitPolls(1);
            WakerSemanticsTest.awaitIdle(ph);
            WakerSemanticsTest.awaitIdle(rh);
            String x = pThread.get();
            assertThat(rThread.get()).isEqualTo(x); // X polled both
            rWaker.get().wake();               // to X's wake channel; X runs it and is held
            assertThat(rHolds.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            assertThat(rThread.get()).isEqualTo(x);
            b1.release();                      // Y is free now
            p.finish = true;
            p.waker.wake();                    // to X's wake channel; only Y can take it
            assertThat(ph.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(pThread.get()).isNotEqualTo(x);
            assertThat(rh.isDone()).isFalse();
            rGo.countDown();
            rh.get(WAIT_S, TimeUnit.SECONDS);
            assertThat(rt.stats().steals())
                    .isPositive();
        }
    }

    /** A worker woken from its park for a task counts one unpark, and never more unparks than parks. */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aWorkerWokenForATaskCountsOneUnpark(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 1)) {
            WakerSemanticsTest.await(() -> rt.parking.parkedCount() == 1, "the worker parked");
            long before = rt.stats().unparks();
            Integer v = rt.run(cx -> Poll.ready(1));
            assertThat(v).isEqualTo(1);
            WakerSemanticsTest.await(() -> rt.parking.parkedCount() == 1, "the worker parked again");
            SchedulerStats s = rt.stats();
            assertThat(s.unparks() - before).as("unparks for one task").isEqualTo(1);
            assertThat(s.workers()).allMatch(w -> w.unparks() <= w.parks(), "unparks <= parks");
        }
    }

    /** A task spawned by a poll waits in its worker's LIFO slot, and the stats count it as queued. */
    @Test
    void aTaskWaitingInTheLifoSlotCountsAsQueued() throws Exception {
        try (AsyncRuntime rt = runtime(AsyncPolicy.WORK_STEALING, 1)) {
            CountDownLatch spawned = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            JoinHandle<Integer> outer = rt.spawn(cx -> {
                rt.spawn(cx2 -> Poll.ready(2));    // to this worker's LIFO slot
                spawned.countDown();
                try {
                    release.await(WAIT_S, TimeUnit.SECONDS);   // holds the only worker meanwhile
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Poll.ready(1);
            });
            assertThat(spawned.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            try {
                assertThat(rt.stats().workers().get(0).queued()).as("the child in the slot").isEqualTo(1);
            } finally {
                release.countDown();
            }
            assertThat(outer.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    /** A task submitted while every worker is parked wakes one worker, not all of them. */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aSubmissionWakesAtMostOneParkedWorker(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 4)) {
            for (int i = 0; i < 20; i++) {
                WakerSemanticsTest.await(() -> rt.parking.parkedCount() == 4, "all workers parked");
                long before = rt.parking.wakes();
                Integer v = rt.run(cx -> Poll.ready(1));
                assertThat(v).isEqualTo(1);
                WakerSemanticsTest.await(() -> rt.parking.parkedCount() == 4, "all workers parked");
                assertThat(rt.parking.wakes() - before).as("workers woken for one task").isEqualTo(1);
            }
        }
    }

    /**
     * One task spawns many children that each compute for a while: the parked peer is woken by
     * the spawns and steals some of them. The parent returns at once rather than blocking its
     * worker until the children ran: a poll must not block, and a child it left in the LIFO slot
     * is not visible work (see AsyncWorker, "The LIFO slot"), so such a test could wait for a
     * child that runs only after the blocking poll (it did, about once in a thousand runs).
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void idleWorkersStealAndStatsCountPolls(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            WakerSemanticsTest.await(() -> rt.parking.parkedCount() == 2, "both workers parked");
            int children = 100;
            CountDownLatch ran = new CountDownLatch(children);
            JoinHandle<Integer> h = rt.spawn(cx -> {
                for (int i = 0; i < children; i++) {
                    rt.spawn(c2 -> {
                        spinMicros(200);       // work, not a blocking wait
                        ran.countDown();
                        return Poll.ready(null);
                    });
                }
                return Poll.ready(children);
            });
            assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(children);
            assertThat(ran.await(WAIT_S, TimeUnit.SECONDS)).as("every child ran").isTrue();
            List<SchedulerStats.WorkerStats> stats = rt.stats().workers();
            assertThat(stats.stream().mapToLong(SchedulerStats.WorkerStats::steals).sum())
                    .as("children stolen by the idle worker").isPositive();
            assertThat(stats.stream().mapToLong(SchedulerStats.WorkerStats::polls).sum())
                    .isGreaterThanOrEqualTo(children + 1);
        }
    }

    private static void spinMicros(long micros) {
        long end = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(micros);
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void statsHaveTheSchedulersShapeAndCountPollsAndParks(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            String result = rt.run(cx -> Poll.ready("x"));
            assertThat(result).isEqualTo("x");
            // both workers go idle once the task is done; each parks at least once
            WakerSemanticsTest.await(() -> rt.stats().workers().stream().allMatch(w -> w.parks() > 0),
                    "both workers parked");
            SchedulerStats s = rt.stats();
            assertThat(s.name()).isEqualTo("rt-" + policy);
            assertThat(s.parallelism()).isEqualTo(2);
            assertThat(s.liveWorkers()).isEqualTo(2);
            assertThat(s.blockedWorkers()).isZero();
            assertThat(s.workers()).extracting(SchedulerStats.WorkerStats::index).containsExactly(0, 1);
            assertThat(s.completed()).as("the runtime counts polls").isZero();
            assertThat(s.polls()).isEqualTo(1);
            assertThat(s.queued()).isZero();
            assertThat(s.toString()).contains("polls=1");
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void liveTasksCountsTasksSpawnedAndNotYetDoneFromOutsideAndInside(AsyncPolicy policy) throws Exception {
        CompletableFuture<Integer> gate = new CompletableFuture<>();
        AsyncRuntime rt = runtime(policy, 2);
        try {
            assertThat(rt.liveTasks()).isZero();
            for (int i = 0; i < 5; i++) {
                rt.spawn(Async.from(gate));
            }
            JoinHandle<Void> parent = rt.spawn(cx -> {
                for (int i = 0; i < 3; i++) {
                    rt.spawn(Async.from(gate));
                }
                return Poll.ready(null);
            });
            parent.get(WAIT_S, TimeUnit.SECONDS);
            WakerSemanticsTest.await(() -> rt.liveTasks() == 8, "8 live tasks, not " + rt.liveTasks());
            gate.complete(1);
            WakerSemanticsTest.await(() -> rt.liveTasks() == 0, "no live task");
            rt.spawn(Async.from(new CompletableFuture<Integer>()));
            rt.spawn(Async.from(new CompletableFuture<Integer>()));
            WakerSemanticsTest.await(() -> rt.liveTasks() == 2, "2 live tasks");
        } finally {
            rt.close();
        }
        assertThat(rt.liveTasks()).as("shutdown cancels what was left").isZero();
        assertThatThrownBy(() -> rt.spawn(Async.ready(1))).isInstanceOf(RejectedExecutionException.class);
        assertThat(rt.liveTasks()).as("a rejected spawn is not live").isZero();
    }
    /**
     * A cell spawned on a worker is listed for shutdown only at its first pending poll; until
     * then it is queued, so shutdown must find it there: children spawned by a task that then
     * shuts the runtime down from inside (the worker exits after that poll) are never polled,
     * and their handles still fail with a cancellation, none lost.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void shutdownFailsTasksSpawnedOnAWorkerThatWereNeverPolled(AsyncPolicy policy) {
        AsyncRuntime rt = runtime(policy, 1);
        List<JoinHandle<Integer>> children = new ArrayList<>();
        AtomicInteger polled = new AtomicInteger();
        JoinHandle<Void> parent = rt.spawn(cx -> {
            for (int i = 0; i < 5_000; i++) {      // beyond the local deque: the injector too
                children.add(rt.spawn(c -> {
                    polled.incrementAndGet();
                    return Poll.ready(1);
                }));
            }
            rt.shutdown();                         // from inside: the worker exits after this poll
            return Poll.ready(null);
        });
        assertTimeoutPreemptively(Duration.ofSeconds(WAIT_S), () -> {
            parent.get();
            for (JoinHandle<Integer> h : children) {
                assertThatThrownBy(h::get).isInstanceOf(CancellationException.class);
            }
            WakerSemanticsTest.await(rt::isTerminated, "terminated");
        });
        assertThat(polled.get()).as("children polled after shutdown").isZero();
        assertThat(rt.liveTasks()).isZero();
    }
}
