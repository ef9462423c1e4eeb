/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Which task a blocked {@code get} runs while every worker is blocked and the task it waits for
 * is queued where the helper cannot take it out of turn (session 38 made the queue entry the only
 * claim; found by review, session 39). P waits in {@code C.get()} on worker B while A waits for a
 * promise; B helps. Y, a task P spawned last, waits for P: run beneath P's poll, it waits for
 * good (here until its 3-second timeout, failing both). The helper used to take its LIFO slot
 * and its deque's top first, which is where Y is; it now goes oldest first towards C.
 */
class BlockedHelperOrderRegressionTest {

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
        JoinHandle<String> a = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                return Poll.ready(p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
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
            Thread closer = new Thread(rt::shutdown);
            closer.setDaemon(true);
            closer.start();
            closer.join(10_000);
        }
    }



    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void theAwaitedTaskUnderSixtyFourNewerSpawnsRunsBeforeATaskThatWaitsForTheCaller(AsyncPolicy policy) throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        CyclicBarrier together = new CyclicBarrier(2);
        CountDownLatch bWaits = new CountDownLatch(1);
        CompletableFuture<JoinHandle<String>> pHandle = new CompletableFuture<>();
        CompletableFuture<JoinHandle<String>> yHandle = new CompletableFuture<>();
        JoinHandle<String> a = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                return Poll.ready(p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        JoinHandle<String> parent = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                rt.spawn(c2 -> Poll.ready("x"));         // WORK_STEALING: the LIFO slot
                JoinHandle<String> c = rt.spawn(c2 -> Poll.ready("c"));
                for (int i = 0; i < 64; i++) {
                    rt.spawn(c2 -> Poll.ready("filler"));
                }
                yHandle.complete(rt.spawn(c2 -> {
                    try {
                        return Poll.ready("y saw " + pHandle.get(10, TimeUnit.SECONDS).get(3, TimeUnit.SECONDS));
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
            Thread.sleep(200);
            p.complete("outside");
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("outside");
            assertThat(parent.get(10, TimeUnit.SECONDS)).isEqualTo("p c");
            assertThat(yHandle.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).as("%s", policy)
                    .isEqualTo("y saw p c");
        } finally {
            p.complete("released");
            Thread closer = new Thread(rt::shutdown);
            closer.setDaemon(true);
            closer.start();
            closer.join(10_000);
        }
    }
}
