/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LiveTasksTest {

    private static TaskCell<Object> cell(AsyncRuntime rt) {
        return new TaskCell<>(rt, cx -> Poll.ready(null));
    }

    @Test
    void keepsEveryCellNotDoneAndDropsDoneOnesWhenPruning() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            LiveTasks live = new LiveTasks();
            List<TaskCell<Object>> pending = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                TaskCell<Object> c = cell(rt);
                live.add(c);
                if (i % 10 == 0) {
                    pending.add(c);
                } else {
                    c.finish();
                }
            }
            live.pruneWhenIdle();
            List<TaskCell<?>> seen = new ArrayList<>();
            live.forEachNotDone(Integer.MAX_VALUE, seen::add);
            assertThat(seen).containsExactlyInAnyOrderElementsOf(pending);
            // done cells were unlinked: the list stays within the documented bound
            assertThat(live.length()).isLessThanOrEqualTo(pending.size() + Math.max(64, pending.size() / 2) * 2);
            pending.get(0).finish();
            live.pruneWhenIdle();
            List<TaskCell<?>> after = new ArrayList<>();
            live.forEachNotDone(Integer.MAX_VALUE, after::add);
            assertThat(after).hasSize(pending.size() - 1).doesNotContain(pending.get(0));
            for (int i = 0; i < 10 * pending.size(); i++) {     // growth since the last pruning
                TaskCell<Object> d = cell(rt);
                d.finish();
                live.add(d);
            }
            live.pruneWhenIdle();
            assertThat(live.length()).isEqualTo(pending.size() - 1);   // grew enough: pruned exactly
        }
    }

    @Test
    void aFinishedBurstSpawnedFromOutsideLeavesTheOutsideListOnceTheWorkersIdle() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            List<JoinHandle<byte[]>> hs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {         // fewer than a spawner's first pruning needs
                hs.add(rt.spawn(cx -> Poll.ready(new byte[1 << 16])));
            }
            for (JoinHandle<byte[]> h : hs) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).hasSize(1 << 16);
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.outsideListed() > 0 && System.nanoTime() < end) {
                Thread.sleep(1);                   // the workers prune as they go idle
            }
            assertThat(rt.outsideListed()).as("done cells still listed, results and all").isZero();
        }
    }

    @Test
    void aFinishedBurstListedOnAWorkerLeavesItsListOnceTheWorkerIdles() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> go = new AsyncPromise<>();
            List<JoinHandle<byte[]>> hs = new ArrayList<>();
            // spawned on a worker, each waits for the promise: listed on the worker that polled
            // it first, fewer than the growth rule's first pruning needs
            rt.spawn(cx -> {
                for (int i = 0; i < 20; i++) {
                    hs.add(rt.spawn(c2 -> go.poll(c2).isReady() ? Poll.ready(new byte[1 << 16]) : Poll.pending()));
                }
                return Poll.ready(null);
            }).get(WAIT_S, TimeUnit.SECONDS);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.workersListed() < 20 && System.nanoTime() < end) {
                Thread.sleep(1);                   // every child polled once, pending
            }
            assertThat(rt.workersListed()).isEqualTo(20);
            go.complete(1);
            for (JoinHandle<byte[]> h : hs) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).hasSize(1 << 16);
            }
            end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.workersListed() > 0 && System.nanoTime() < end) {
                Thread.sleep(1);                   // the workers prune as they go idle
            }
            assertThat(rt.workersListed()).as("done cells still listed, results and all").isZero();
        }
    }

    /**
     * More cells than a list's first pruning keeps (64), all pending when the list was pruned,
     * then all finished with no spawn after: the growth rule waits for the list to grow by half
     * again, so the idle pruning left them and their results listed for as long as the runtime
     * idled. The sweep of the last worker to park now prunes a list once about half as many
     * listed cells as it kept have finished.
     */
    @Test
    void aLargeFinishedBurstSpawnedFromOutsideLeavesTheOutsideListOnceTheWorkersIdle() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> go = new AsyncPromise<>();
            List<JoinHandle<byte[]>> hs = new ArrayList<>();
            for (int i = 0; i < 200; i++) {         // pruned at 64 and 128 spawns, all pending
                hs.add(rt.spawn(c2 -> go.poll(c2).isReady() ? Poll.ready(new byte[1 << 16]) : Poll.pending()));
            }
            awaitAllPolledPending(hs, go);
            go.complete(1);
            for (JoinHandle<byte[]> h : hs) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).hasSize(1 << 16);
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.outsideListed() > 0 && System.nanoTime() < end) {
                Thread.sleep(1);                   // the workers prune as they go idle
            }
            assertThat(rt.outsideListed()).as("done cells still listed, results and all").isZero();
        }
    }

    /** As above, for cells spawned on a worker and listed there at their first pending poll. */
    @Test
    void aLargeFinishedBurstListedOnAWorkerLeavesItsListOnceTheRuntimeIdles() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> go = new AsyncPromise<>();
            List<JoinHandle<byte[]>> hs = new ArrayList<>();
            rt.spawn(cx -> {
                for (int i = 0; i < 200; i++) {
                    hs.add(rt.spawn(c2 -> go.poll(c2).isReady() ? Poll.ready(new byte[1 << 16]) : Poll.pending()));
                }
                return Poll.ready(null);
            }).get(WAIT_S, TimeUnit.SECONDS);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.workersListed() < 200 && System.nanoTime() < end) {
                Thread.sleep(1);                   // every child polled once, pending
            }
            assertThat(rt.workersListed()).isEqualTo(200);
            go.complete(1);
            for (JoinHandle<byte[]> h : hs) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).hasSize(1 << 16);
            }
            end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.workersListed() > 0 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            assertThat(rt.workersListed()).as("done cells still listed, results and all").isZero();
        }
    }

    /** Waits until the promise has a waiter entry for each of {@code hs}: each was polled, pending. */
    private static void awaitAllPolledPending(List<? extends JoinHandle<?>> hs, AsyncPromise<?> go)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (go.waiterCount() < hs.size() && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        assertThat(go.waiterCount()).isGreaterThanOrEqualTo(hs.size());
    }

    /**
     * A cell is listed on the worker that first polled it pending, and may finish on another:
     * here worker A lists X and parks; X is woken by a task on worker B, runs there from B's LIFO
     * slot (which wakes nobody), and B parks last. A never ran again, so its own pruning at a
     * park could not drop X: the last worker to park prunes every parked worker's list when a
     * listed cell has finished since (before, X and its result stayed listed for good).
     */
    @Test
    void aListedCellThatFinishesOnAnotherWorkerLeavesTheListOnceTheRuntimeIdles() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.WORK_STEALING).build()) {
            AsyncPromise<Integer> go = new AsyncPromise<>();
            JoinHandle<byte[]> x = listedOnAThenBothParked(rt,
                    c2 -> go.poll(c2).isReady() ? Poll.ready(new byte[1 << 16]) : Poll.pending());
            rt.spawn(cx -> Poll.ready(go.complete(1))).get(WAIT_S, TimeUnit.SECONDS);  // on B; X too
            assertThat(x.get(WAIT_S, TimeUnit.SECONDS)).hasSize(1 << 16);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.workersListed() > 0 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            assertThat(rt.workersListed()).as("done cells still listed, results and all").isZero();
        }
    }

    /**
     * As above, with the listed cell cancelled instead of finished. X is listed on A, then
     * polled again on B (pending there too, so B owns it); cancelled while both park, it is
     * retired by B, its owner. B counts it, so the runtime's last parker sweeps it out of A's
     * list. Before, a cancelled cell was not counted and stayed listed while the runtime idled.
     */
    @Test
    void aListedCellCancelledAndRetiredOnAnotherWorkerLeavesTheListOnceTheRuntimeIdles() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.WORK_STEALING).build()) {
            AsyncPromise<Integer> go = new AsyncPromise<>();
            AsyncPromise<Integer> never = new AsyncPromise<>();
            java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
            JoinHandle<Integer> x = listedOnAThenBothParked(rt, c2 -> {
                polls.incrementAndGet();
                return go.poll(c2).isReady() ? never.poll(c2) : Poll.pending();
            });
            rt.spawn(cx -> Poll.ready(go.complete(1))).get(WAIT_S, TimeUnit.SECONDS);  // on B; X too
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (polls.get() < 2 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            assertThat(polls.get()).as("X polled again, on B").isEqualTo(2);
            StalledPollTest.awaitParked(rt, 2);
            assertThat(rt.workersListed()).as("X, pending, still listed on A").isEqualTo(1);
            assertThat(x.cancel(false)).isTrue();  // queued for its owner, B, to retire
            end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (rt.workersListed() > 0 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            assertThat(rt.workersListed()).as("a cancelled cell still listed").isZero();
        }
    }

    @Test
    void pruneIfGrownKeepsPendingCellsAndWaitsForGrowthBeforeWalkingThemAgain() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            LiveTasks live = new LiveTasks();
            List<TaskCell<Object>> pending = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                TaskCell<Object> c = cell(rt);
                pending.add(c);
                live.add(c);
            }
            TaskCell<Object> done = cell(rt);
            live.add(done);
            done.finish();
            assertThat(live.mayHaveGrown()).isTrue();
            live.pruneIfGrown();
            assertThat(live.length()).as("the done cell dropped, the pending kept").isEqualTo(10);
            assertThat(live.mayHaveGrown()).isFalse();
            for (int i = 0; i < 4; i++) {          // fewer than half the 10 kept
                TaskCell<Object> d = cell(rt);
                live.add(d);
                d.finish();
            }
            live.pruneIfGrown();
            assertThat(live.length()).as("not grown enough to walk again").isEqualTo(14);
            TaskCell<Object> d = cell(rt);
            live.add(d);
            d.finish();
            live.pruneIfGrown();
            assertThat(live.length()).as("grown by half: pruned").isEqualTo(10);
        }
    }

    /**
     * The two sweep scenarios' scene: worker B is held while a task on worker A spawns
     * {@code task} (a spawn from outside would be listed outside), which A polls pending and lists;
     * A parks first, then B, the most recently parked, which an outside spawn wakes first.
     */
    private static <T> JoinHandle<T> listedOnAThenBothParked(AsyncRuntime rt, AsyncTask<T> task) throws Exception {
        HeldWorker b = new HeldWorker(rt);
        java.util.concurrent.atomic.AtomicReference<JoinHandle<T>> xRef = new java.util.concurrent.atomic.AtomicReference<>();
        rt.spawn(cx -> {
            xRef.set(rt.spawn(task));
            return Poll.ready(null);
        }).get(WAIT_S, TimeUnit.SECONDS);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (rt.workersListed() < 1 && System.nanoTime() < end) {
            Thread.sleep(1);                       // A polled X: pending, listed on A
        }
        assertThat(rt.workersListed()).isEqualTo(1);
        StalledPollTest.awaitParked(rt, 1);        // A parks first
        b.release();
        StalledPollTest.awaitParked(rt, 2);        // then B
        return xRef.get();
    }
}
