/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Counters of the async runtime after a long run: each test puts a counter where weeks of
 * traffic leave it (just short of its wrap) and checks that the behaviour it drives still holds
 * on the far side.
 */
class CounterWrapRegressionTest {

    /**
     * HYBRID's {@code hotPicks} counts picks from the hot queue since the yields' last turn. A
     * worker whose tasks seldom yield picks from the hot queue billions of times with no yield
     * waiting (2^31 picks: about 36 minutes at a million wake-ups a second); the count must not
     * wrap negative there, or the next yield waits for the injector's periodic pick instead of
     * getting its turn after one hot pick (see {@code HybridOrderTest.aYieldRunsBeforeTheNextBatchOfWakeups}).
     */
    @Test
    void aYieldStillGetsItsTurnAfterBillionsOfHotPicks() throws Exception {
        int yields = 3;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(AsyncPolicy.HYBRID).build()) {
            AtomicInteger round = new AtomicInteger();
            AtomicInteger yDoneAt = new AtomicInteger(-1);
            AtomicInteger yRan = new AtomicInteger();
            Waker[] wakers = new Waker[3];
            CountDownLatch firstPolls = new CountDownLatch(3);
            List<JoinHandle<Void>> handles = new ArrayList<>();
            int rounds = 2_000;
            for (int i = 0; i < 3; i++) {
                int id = i;
                handles.add(rt.spawn(new AsyncTask<Void>() {
                    boolean polled;

                    @Override
                    public Poll<Void> poll(Context cx) {
                        if (!polled) {
                            polled = true;
                            wakers[id] = cx.waker();
                            firstPolls.countDown();
                            return Poll.pending();
                        }
                        if (id == 2) {         // Y: yields a few times
                            if (yRan.incrementAndGet() > yields) {
                                yDoneAt.set(round.get());
                                return Poll.ready(null);
                            }
                            cx.waker().wake();
                            return Poll.pending();
                        }
                        boolean last = round.incrementAndGet() >= rounds;
                        wakers[1 - id].wake(); // A and B keep the hot queue busy
                        return last ? Poll.ready(null) : Poll.pending();
                    }
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            rt.run(cx -> {
                // On the only worker's own thread: the count a long run without yields leaves.
                AsyncWorker.current().hotPicks = Integer.MAX_VALUE;
                wakers[0].wake();
                wakers[2].wake();
                return Poll.ready(null);
            });
            for (JoinHandle<Void> h : handles) {
                h.get(WAIT_S, TimeUnit.SECONDS);
            }
            assertThat(yDoneAt.get())
                    .as("ping-pong round at which Y finished its %d yields", yields)
                    .isBetween(0, yields + 2);
        }
    }

    /**
     * A channel numbers the values taken from it (handed straight to waiting receives, or taken
     * from its buffer) with an {@code int} ({@code taken}), which a busy channel wraps (2^32
     * values: about 43 seconds at 100 million a second). Values that cancelled receives give back are kept in that order by
     * difference, so they must still come out in hand-over order when the numbers wrap between
     * them, whatever order the receives are cancelled in.
     */
    @Test
    void valuesGivenBackByCancelledReceivesKeepTheirOrderAcrossTheHandOverWrap() throws Exception {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Field taken = AsyncChannel.class.getDeclaredField("taken");
        taken.setAccessible(true);
        taken.setInt(ch, Integer.MAX_VALUE - 1);
        Context cx = new Context() {
            @Override
            public Waker waker() {
                return () -> { };
            }

            @Override
            public boolean consumeBudget() {
                return true;
            }
        };
        List<AsyncTask<Integer>> receives = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            AsyncTask<Integer> r = ch.receive();
            assertThat(r.poll(cx).isPending()).isTrue();
            receives.add(r);
        }
        for (int v = 0; v < 4; v++) {          // numbered MAX - 1, MAX, MIN, MIN + 1
            assertThat(ch.send(v).poll(cx).isReady()).isTrue();
        }
        for (int i : new int[] {3, 1, 2, 0}) { // none returned its value: all go back
            Async.cancel(receives.get(i));
        }
        List<Integer> got = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            got.add(ch.receive().poll(cx).value());
        }
        assertThat(got).containsExactly(0, 1, 2, 3);
    }
}
