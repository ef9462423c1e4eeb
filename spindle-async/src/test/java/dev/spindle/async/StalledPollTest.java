/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A poll that blocks its worker (which a poll should not do, but which a blocking {@code get} on a
 * handle makes easy) does not strand what it scheduled: a parked peer watches a worker whose poll
 * runs on and takes the task waiting behind it ({@code LoneTaskWatch}). Each test first waits
 * until the other worker is parked, so that only that backstop can run the task: without it the
 * blocked poll waits for good (here, until its bound of {@code WAIT_S} seconds, and fails).
 */
class StalledPollTest {

    /** Waits until {@code n} workers of {@code rt} are parked and none searches. */
    static void awaitParked(AsyncRuntime rt, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (rt.stats().parkedWorkers() < n || rt.stats().searchingWorkers() != 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("workers never parked: " + rt.stats());
            }
            Thread.sleep(1);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskSpawnedByAPollThatThenBlocksOnItRunsOnAParkedPeer(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build()) {
            JoinHandle<String> parent = rt.spawn(cx -> {
                try {
                    awaitParked(rt, 1);
                    JoinHandle<String> child = rt.spawn(c2 -> Poll.ready("child ran"));  // the LIFO slot
                    return Poll.ready(child.get(WAIT_S, TimeUnit.SECONDS));           // blocks the worker
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(parent.get(2 * WAIT_S, TimeUnit.SECONDS)).isEqualTo("child ran");
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskWokenByAPollThatThenBlocksOnItRunsOnAParkedPeer(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build()) {
            AsyncPromise<String> go = new AsyncPromise<>();
            JoinHandle<String> waiter = rt.spawn(cx -> {
                Poll<String> p = go.poll(cx);
                return p.isReady() ? Poll.ready("woken and ran: " + p.value()) : Poll.pending();
            });
            JoinHandle<String> parent = rt.spawn(cx -> {
                try {
                    awaitParked(rt, 1);
                    go.complete("go");                                      // wakes waiter into the slot
                    return Poll.ready(waiter.get(WAIT_S, TimeUnit.SECONDS)); // blocks the worker
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(parent.get(2 * WAIT_S, TimeUnit.SECONDS)).isEqualTo("woken and ran: go");
        }
    }

    /**
     * Only one parked worker watches at a time. When the watcher is woken for work while another
     * worker sleeps unwatching, the role must pass to the sleeper: otherwise a poll on the woken
     * watcher that then blocks on what it scheduled has nobody to rescue it. Worker X is held
     * while worker Y polls the two tasks first and parks as the watcher; X then parks too and,
     * finding the role taken, sleeps. The outside completion of {@code goParent} wakes the
     * parent's last poller, Y, which leaves the watch; the parent wakes the waiter into Y's LIFO
     * slot and blocks on it. Only X, handed the role, can take the waiter.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void theWatchPassesToASleepingPeerWhenTheWatcherIsWoken(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build()) {
            HeldWorker x = new HeldWorker(rt);

            AsyncPromise<String> go = new AsyncPromise<>();
            AsyncPromise<String> goParent = new AsyncPromise<>();
            CountDownLatch firstPolls = new CountDownLatch(2);
            JoinHandle<String> waiter = rt.spawn(cx -> {
                firstPolls.countDown();
                Poll<String> p = go.poll(cx);
                return p.isReady() ? Poll.ready("woken and ran: " + p.value()) : Poll.pending();
            });
            JoinHandle<String> parent = rt.spawn(cx -> {
                firstPolls.countDown();
                if (!goParent.poll(cx).isReady()) {
                    return Poll.pending();                                  // polled first on Y
                }
                go.complete("go");                                          // wakes waiter into Y's slot
                try {
                    return Poll.ready(waiter.get(WAIT_S, TimeUnit.SECONDS)); // blocks Y
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            awaitParked(rt, 1);                                             // Y, the watcher
            x.release();
            awaitParked(rt, 2);                                             // X sleeps, unwatching

            goParent.complete("now");                                       // wakes Y, the watcher
            assertThat(parent.get(2 * WAIT_S, TimeUnit.SECONDS)).isEqualTo("woken and ran: go");
        }
    }

    /**
     * HYBRID's hot queue is its worker's own: a batch of wake-ups taken into it can be run by no
     * one else. Two tasks first polled on worker W are woken together while W is busy, so both
     * enter its hot queue in one batch; the first to run then blocks on the other's handle. The
     * other worker P, kept busy until then, parks and watches W: only the watcher's spill of W's
     * stalled hot queue (to W's wake channel, from which P takes it) lets the second task run.
     */
    @Test
    void aTaskInTheSameHotBatchAsAPollThatThenBlocksOnItRunsOnAParkedPeer() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.HYBRID).build()) {
            CountDownLatch pHeld = new CountDownLatch(1);
            CountDownLatch releaseP = new CountDownLatch(1);
            JoinHandle<Boolean> onP = rt.spawn(blockingUntil(pHeld, releaseP));   // worker P
            assertThat(pHeld.await(WAIT_S, TimeUnit.SECONDS)).isTrue();

            // X and Y are polled first on the other worker, W, and wait for their promises.
            AsyncPromise<String> goX = new AsyncPromise<>();
            AsyncPromise<String> goY = new AsyncPromise<>();
            AtomicReference<JoinHandle<String>> xRef = new AtomicReference<>();
            AtomicReference<JoinHandle<String>> yRef = new AtomicReference<>();
            AtomicBoolean firstTaken = new AtomicBoolean();
            CountDownLatch firstBlocks = new CountDownLatch(1);
            xRef.set(rt.spawn(firstBlocksOnTheOther(goX, yRef, firstTaken, firstBlocks)));
            yRef.set(rt.spawn(firstBlocksOnTheOther(goY, xRef, firstTaken, firstBlocks)));
            awaitParked(rt, 1);                                                   // W, both waiting

            // W is held while both wake-ups reach its wake channel; then it takes them as one batch.
            CountDownLatch wHeld = new CountDownLatch(1);
            CountDownLatch releaseW = new CountDownLatch(1);
            JoinHandle<Boolean> onW = rt.spawn(blockingUntil(wHeld, releaseW));
            assertThat(wHeld.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            goX.complete("x");
            goY.complete("y");
            releaseW.countDown();
            assertThat(firstBlocks.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            releaseP.countDown();                                                 // P parks and watches

            assertThat(xRef.get().get(2 * WAIT_S, TimeUnit.SECONDS)).isIn("x", "x after y");
            assertThat(yRef.get().get(2 * WAIT_S, TimeUnit.SECONDS)).isIn("y", "y after x");
            assertThat(onP.get(WAIT_S, TimeUnit.SECONDS)).isTrue();
            assertThat(onW.get(WAIT_S, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A task whose poll signals {@code held} and blocks its worker until {@code release}. */
    static AsyncTask<Boolean> blockingUntil(CountDownLatch held, CountDownLatch release) {
        return cx -> {
            held.countDown();
            try {
                return Poll.ready(release.await(2 * WAIT_S, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /**
     * Waits for {@code go}; once woken, the first of the pair to run blocks its worker on the
     * other's handle, the second just finishes.
     */
    private static AsyncTask<String> firstBlocksOnTheOther(AsyncPromise<String> go,
            AtomicReference<JoinHandle<String>> other, AtomicBoolean firstTaken, CountDownLatch firstBlocks) {
        return cx -> {
            Poll<String> p = go.poll(cx);
            if (!p.isReady()) {
                return Poll.pending();
            }
            if (!firstTaken.compareAndSet(false, true)) {
                return Poll.ready(p.value());
            }
            firstBlocks.countDown();
            try {
                return Poll.ready(p.value() + " after " + other.get().get(WAIT_S, TimeUnit.SECONDS));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }
}
