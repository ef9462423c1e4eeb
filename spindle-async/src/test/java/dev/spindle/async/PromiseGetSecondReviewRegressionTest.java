/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Second review of counting a worker blocked in a promise's (or another runtime's handle's)
 * {@code get} in {@link AsyncRuntime#blockedInGet}: the count stays exact however such a get
 * ends, a one-worker runtime still allows a promise get, a close while a worker waits for a
 * promise cancels nothing a peer's poll still runs, and a peer of such a worker still runs
 * what is submitted.
 *
 * <p>One defect: with a promise waiter counted, a worker blocked in the get of a task it had
 * just spawned started helping at once and ran its first pick, the task spawned after the
 * awaited one, which waited for the poll beneath it: both waited for good, where before the
 * peer ran them in turn once its promise completed
 * ({@link #aPeerWaitingForAnOutsidePromiseDoesNotMakeABlockedWorkerRunATaskThatWaitsForItsCaller}).
 * A helper now runs the task it awaits first when that one is queued where the helper can take
 * its entry (its own LIFO slot or deque:
 * {@link #theAwaitedTaskIsTakenFromUnderTheTopOfTheHelpersDeque}), and goes oldest first towards
 * it when it is queued elsewhere (session 39).
 */
class PromiseGetSecondReviewRegressionTest {

    /** Shuts {@code rt} down on a daemon thread and waits up to 10 s for it. */
    private static void release(AsyncRuntime rt) throws InterruptedException {
        Thread closer = new Thread(rt::shutdown, "release-" + rt);
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(10));
    }

    /** Spawns worker A's task: it meets the other worker's task at {@code together}, then blocks in {@code p.get()}. */
    private static JoinHandle<String> spawnWaitingTogether(AsyncRuntime rt, CyclicBarrier together,
            AsyncPromise<String> p) {
        return rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                return Poll.ready(p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
    }

    /** Spawns a task that counts {@code waiting} down and then blocks in {@code p.get()}. */
    private static JoinHandle<String> spawnGetting(AsyncRuntime rt, AsyncPromise<String> p, CountDownLatch waiting) {
        return rt.spawn(cx -> {
            try {
                waiting.countDown();
                return Poll.ready(p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
    }

    /** The only worker of a one-worker runtime may wait for a promise that an outside thread completes. */
    @Test
    void theOnlyWorkerMayStillWaitForAPromise() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        CountDownLatch waiting = new CountDownLatch(1);
        JoinHandle<String> a = spawnGetting(rt, p, waiting);
        try {
            assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 1, "the worker counted in the promise's get");
            p.complete("outside");
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("outside");
            assertThat(rt.blockedInGet.get()).isZero();
        } finally {
            p.complete("released");
            release(rt);
        }
        assertThat(rt.isTerminated()).isTrue();
    }

    /** A promise get on a worker that times out, is interrupted or fails leaves the count where it was. */
    @Test
    void aPromiseGetThatEndsWithoutAValueUncountsItselfOnce() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
        try {
            JoinHandle<String> timedOut = rt.spawn(cx -> {
                try {
                    new AsyncPromise<String>().get(20, TimeUnit.MILLISECONDS);
                    return Poll.ready("value?");
                } catch (TimeoutException e) {
                    return Poll.ready("timed out");
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            });
            assertThat(timedOut.get(10, TimeUnit.SECONDS)).isEqualTo("timed out");
            JoinHandle<String> interrupted = rt.spawn(cx -> {
                Thread.currentThread().interrupt();
                try {
                    new AsyncPromise<String>().get();
                    return Poll.ready("value?");
                } catch (InterruptedException e) {
                    return Poll.ready("interrupted");
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            });
            assertThat(interrupted.get(10, TimeUnit.SECONDS)).isEqualTo("interrupted");
            AsyncPromise<String> failing = new AsyncPromise<>();
            CountDownLatch waiting = new CountDownLatch(1);
            JoinHandle<String> failed = rt.spawn(cx -> {
                try {
                    waiting.countDown();
                    failing.get();
                    return Poll.ready("value?");
                } catch (ExecutionException e) {
                    return Poll.ready("failed");
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            });
            assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 1, "the worker counted");
            failing.completeExceptionally(new IllegalStateException("no"));
            assertThat(failed.get(10, TimeUnit.SECONDS)).isEqualTo("failed");
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 0, "the count back at zero");
            assertThat(rt.blockedInGet.get()).isZero();
        } finally {
            release(rt);
        }
    }

    /**
     * Two workers: A waits for a promise, B in a get of task T that is RUNNING on A (T is A's
     * poll). A close now finds every worker counted, but T runs on A, not beneath B: it is not
     * cancelled, and once the promise completes T's value reaches B.
     */
    @Test
    void aCloseWhileAPeerWaitsForAPromiseDoesNotCancelTheTaskThatPeerRuns() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        CountDownLatch tWaits = new CountDownLatch(1);
        JoinHandle<String> t = rt.spawn(cx -> {
            try {
                tWaits.countDown();
                return Poll.ready("t " + p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        assertThat(tWaits.await(10, TimeUnit.SECONDS)).isTrue();
        JoinHandle<String> b = rt.spawn(cx -> {
            try {
                return Poll.ready("b " + t.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        try {
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 2, "both workers counted");
            Thread closer = new Thread(rt::shutdown, "closer");
            closer.setDaemon(true);
            closer.start();
            BlockedGetFixture.await(rt::isShutdown, "the close under way");
            Thread.sleep(100);                    // several of B's 10 ms looks at the closing runtime
            assertThat(t.isDone()).as("T still runs on A").isFalse();
            p.complete("v");
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo("t v");
            assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("b t v");
            closer.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(rt.isTerminated()).isTrue();
        } finally {
            p.complete("released");
            release(rt);
        }
    }

    /**
     * A helped task that itself waits for a promise is counted once: the count never exceeds
     * the worker count, and is back at zero once every get ended.
     */
    @Test
    void aHelpedTaskWaitingForAPromiseIsCountedOnce() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
        AsyncPromise<String> outer = new AsyncPromise<>();
        AsyncPromise<String> inner = new AsyncPromise<>();
        CyclicBarrier together = new CyclicBarrier(2);
        CompletableFuture<JoinHandle<String>> helpedHandle = new CompletableFuture<>();
        JoinHandle<String> a = spawnWaitingTogether(rt, together, outer);
        JoinHandle<String> b = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                JoinHandle<String> helped = rt.spawn(c2 -> {
                    try {
                        return Poll.ready("helped " + inner.get());
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                });
                helpedHandle.complete(helped);
                return Poll.ready(helped.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        try {
            helpedHandle.get(10, TimeUnit.SECONDS);
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 2, "both workers counted");
            Thread.sleep(50);                     // B's worker helps: runs the task, which waits for inner
            assertThat(rt.blockedInGet.get()).isLessThanOrEqualTo(2);
            inner.complete("i");
            assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("helped i");
            outer.complete("o");
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("o");
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 0, "the count back at zero");
        } finally {
            outer.complete("released");
            inner.complete("released");
            release(rt);
        }
    }

    /**
     * Cross-runtime: a worker of R1 waits for a handle of R2 whose task waits for a promise; R1's
     * other worker still runs what is submitted to R1 from outside.
     */
    @Test
    void aWorkerWaitingForAPromiseLeavesItsPeerRunningOutsideTasks() throws Exception {
        for (AsyncPolicy policy : AsyncPolicy.values()) {
            AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build();
            AsyncPromise<String> p = new AsyncPromise<>();
            CountDownLatch waiting = new CountDownLatch(1);
            JoinHandle<String> a = spawnGetting(rt, p, waiting);
            try {
                assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
                for (int i = 0; i < 200; i++) {
                    int n = i;
                    assertThat(rt.spawn(cx -> Poll.ready(n)).get(10, TimeUnit.SECONDS)).isEqualTo(n);
                }
                p.complete("v");
                assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("v");
            } finally {
                p.complete("released");
                release(rt);
            }
            assertThat(rt.isTerminated()).as("%s", policy).isTrue();
        }
    }

    /**
     * Two workers: A waits for a promise an outside thread completes later; B's task P spawns C
     * and then Y (since session 36 C keeps B's LIFO slot and Y goes to its deque; before, Y took
     * the slot and C went to the deque) and waits in {@code C.get()}; Y waits in
     * {@code P.get()}. Before counting A, B did not help, and once the promise completed A ran
     * the rest and everything ended. With A counted, B helps at once and runs Y first, beneath
     * which P waits for Y and Y for P.
     */
    @Test
    void aPeerWaitingForAnOutsidePromiseDoesNotMakeABlockedWorkerRunATaskThatWaitsForItsCaller()
            throws Exception {
        blockedWorkerHelpsWhileAPeerWaitsForAPromise(AsyncPolicy.WORK_STEALING, false, 0);
    }

    /**
     * As above, but P spawns X first (B's LIFO slot under WORK_STEALING; under HYBRID, which has
     * no slot, X, C and Y all go to B's deque), so that C lies in B's deque under Y. A helper
     * takes the awaited task through its queue entry, the only claim on a cell (session 38:
     * {@code AsyncWorker.takeAwaited}), here from under the deque's top; taking the top, as the
     * loop's own pick does, would run Y beneath P (Y gives up after 10 s and the test fails).
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void theAwaitedTaskIsTakenFromUnderTheTopOfTheHelpersDeque(AsyncPolicy policy) throws Exception {
        blockedWorkerHelpsWhileAPeerWaitsForAPromise(policy, true, 0);
    }

    /**
     * As above, with 64 tasks spawned between C and Y, so that C lies below the newest 64 cells
     * of B's deque, deeper than {@code takeAwaited} looks. The helper took its slot (X) and then
     * the deque's top (Y) and ran Y beneath P; it now goes oldest first towards C
     * ({@code AsyncWorker.takeOldestFirst}; found by review, session 39).
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void theAwaitedTaskUnderSixtyFourNewerSpawnsRunsBeforeATaskThatWaitsForTheCaller(AsyncPolicy policy)
            throws Exception {
        blockedWorkerHelpsWhileAPeerWaitsForAPromise(policy, true, AsyncWorker.AWAITED_SEARCH_DEPTH);
    }

    private static void blockedWorkerHelpsWhileAPeerWaitsForAPromise(AsyncPolicy policy, boolean spawnXFirst,
            int fillers) throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        CyclicBarrier together = new CyclicBarrier(2);
        CountDownLatch bWaits = new CountDownLatch(1);
        CompletableFuture<JoinHandle<String>> pHandle = new CompletableFuture<>();
        CompletableFuture<JoinHandle<String>> yHandle = new CompletableFuture<>();
        JoinHandle<String> a = spawnWaitingTogether(rt, together, p);
        JoinHandle<String> parent = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                if (spawnXFirst) {
                    rt.spawn(c2 -> Poll.ready("x"));
                }
                JoinHandle<String> c = rt.spawn(c2 -> Poll.ready("c"));
                for (int i = 0; i < fillers; i++) {
                    rt.spawn(c2 -> Poll.ready("filler"));
                }
                yHandle.complete(rt.spawn(c2 -> {
                    try {
                        return Poll.ready("y saw " + pHandle.get(10, TimeUnit.SECONDS).get());
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                }));
                bWaits.countDown();
                return Poll.ready("p " + c.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        pHandle.complete(parent);
        try {
            assertThat(bWaits.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(200);                    // B blocked in C's get, A in the promise's
            p.complete("outside");
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("outside");
            assertThat(parent.get(10, TimeUnit.SECONDS)).isEqualTo("p c");
            assertThat(yHandle.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).as("%s", policy)
                    .isEqualTo("y saw p c");
        } finally {
            p.complete("released");
            release(rt);
        }
        assertThat(rt.isTerminated()).isTrue();
    }

    /**
     * As above, with the awaited task C queued in B's wake channel, where a helper cannot take it
     * out of turn: C ran once on B and waited for a promise q, which an outside thread completes
     * during P's second poll; P then spawns Y (B's LIFO slot), which waits for P, and waits in
     * {@code C.get()}. The helper took the slot first and ran Y beneath P; it now goes oldest
     * first, the wake channel before the slot ({@code AsyncWorker.takeOldestFirst}; found by
     * review, session 39). Y's get of P gives up after 3 s, so that the test fails rather than
     * hangs.
     */
    @Test
    void theAwaitedTaskInTheHelpersWakeChannelRunsBeforeATaskThatWaitsForTheCaller() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.WORK_STEALING).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        AsyncPromise<String> q = new AsyncPromise<>();
        CyclicBarrier together = new CyclicBarrier(2);
        CountDownLatch cPolledOnce = new CountDownLatch(1);
        CompletableFuture<JoinHandle<String>> pHandle = new CompletableFuture<>();
        CompletableFuture<JoinHandle<String>> yHandle = new CompletableFuture<>();
        AtomicInteger pPolls = new AtomicInteger();
        JoinHandle<String> a = spawnWaitingTogether(rt, together, p);
        JoinHandle<?>[] cBox = new JoinHandle<?>[1];
        JoinHandle<String> parent = rt.spawn(cx -> {
            try {
                if (pPolls.getAndIncrement() == 0) {
                    together.await(10, TimeUnit.SECONDS);
                    cBox[0] = rt.spawn(c2 -> {           // B's LIFO slot: runs right after this poll
                        Poll<String> r = q.poll(c2);
                        cPolledOnce.countDown();
                        return r.isReady() ? Poll.ready("c " + r.value()) : Poll.pending();
                    });
                    cx.waker().wake();                   // yield: polled again after C
                    return Poll.pending();
                }
                assertThat(cPolledOnce.await(10, TimeUnit.SECONDS)).isTrue();
                Thread outside = new Thread(() -> q.complete("q"));  // an outside event wakes C
                outside.start();
                outside.join();                          // C is SCHEDULED, in B's wake channel
                yHandle.complete(rt.spawn(c2 -> {        // B's LIFO slot
                    try {
                        return Poll.ready("y saw " + pHandle.get(10, TimeUnit.SECONDS).get(3, TimeUnit.SECONDS));
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                }));
                @SuppressWarnings("unchecked")
                JoinHandle<String> c = (JoinHandle<String>) cBox[0];
                return Poll.ready("p " + c.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        pHandle.complete(parent);
        try {
            JoinHandle<String> y = yHandle.get(10, TimeUnit.SECONDS);
            assertThat(parent.get(15, TimeUnit.SECONDS)).isEqualTo("p c q");
            p.complete("outside");
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("outside");
            assertThat(y.get(10, TimeUnit.SECONDS)).isEqualTo("y saw p c q");
        } finally {
            p.complete("released");
            release(rt);
        }
    }
}
