/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A long-lived {@link JoinHandle} (a shutdown signal, say) that many selects and short tasks
 * await without its completing: their wakers must not pile up in its waiter stack, where each
 * would keep its select, its task and what they reference reachable until the handle completes.
 * Live waiters must still be woken, each once.
 */
class StaleWaiterTest {

    /**
     * Most entries a stack may hold when at most {@code peakLive} of them were ever live at once:
     * a prune leaves the live ones, and the next comes when the stack has doubled.
     */
    private static int bound(int peakLive) {
        return 2 * peakLive + JoinHandle.PRUNE_MIN + 2;
    }

    @Test
    void aSelectRepeatedAgainstAPromiseThatNeverCompletesLeavesABoundedStack() {
        AsyncPromise<String> shutdown = new AsyncPromise<>();
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        for (int i = 0; i < 10_000; i++) {
            List<AsyncTask<Object>> tasks = List.of(Async.map(shutdown, s -> (Object) s), Async.ready((Object) i));
            Poll<Async.Selected<Object>> p = Async.select(tasks).poll(cx);
            assertThat(p.isReady()).isTrue();
            assertThat(p.value().index()).isEqualTo(1);
        }
        assertThat(shutdown.waiterCount()).as("entries left by 10,000 finished selects").isLessThanOrEqualTo(bound(0));
    }

    @Test
    void finishedTasksThatAwaitedAPromiseDoNotStayInItsStack() throws Exception {
        AsyncPromise<String> shutdown = new AsyncPromise<>();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            for (int round = 0; round < 20; round++) {
                List<JoinHandle<Integer>> hs = new ArrayList<>();
                for (int i = 0; i < 500; i++) {
                    int v = i;
                    // each task waits on the signal and on its own work; its work wins
                    hs.add(rt.spawn(Async.map(Async.select(List.of(
                            Async.map(shutdown, s -> -1),
                            Async.map(Async.yieldNow(), x -> v))), Async.Selected::value)));
                }
                for (int i = 0; i < hs.size(); i++) {
                    assertThat(hs.get(i).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(i);
                }
            }
            assertThat(shutdown.waiterCount()).as("entries left by 10,000 finished tasks").isLessThanOrEqualTo(bound(0));
        }
    }

    @Test
    void cancelledAwaitersArePrunedAndLiveOnesAreWokenOnce() throws Exception {
        AsyncPromise<String> signal = new AsyncPromise<>();
        AtomicInteger woken = new AtomicInteger();
        AtomicInteger polls = new AtomicInteger();
        AsyncTask<String> awaitSignal = cx -> {
            polls.incrementAndGet();           // counted before the poll registers its waker
            return signal.poll(cx);
        };
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            List<JoinHandle<String>> live = new ArrayList<>();
            for (int round = 0; round < 10; round++) {
                List<JoinHandle<String>> doomed = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    doomed.add(rt.spawn(Async.map(awaitSignal, s -> s)));
                }
                live.add(rt.spawn(Async.map(awaitSignal, s -> {
                    woken.incrementAndGet();
                    return s;
                })));
                awaitPolls(polls, 301 * (round + 1));  // all registered before they are cancelled
                for (JoinHandle<String> h : doomed) {
                    h.cancel(false);
                }
            }
            // new awaiters prune the cancelled ones as they register
            List<JoinHandle<String>> late = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                late.add(rt.spawn(Async.map(awaitSignal, s -> s + "!")));
            }
            awaitPolls(polls, 301 * 10 + 200);
            // at most one round's 300 doomed, the 10 live and the 200 late ones were live at once
            assertThat(signal.waiterCount()).as("entries with 210 live awaiters after 3,000 cancelled ones")
                    .isLessThanOrEqualTo(bound(300 + live.size() + late.size()));
            assertThat(signal.complete("go")).isTrue();
            for (JoinHandle<String> h : live) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("go");
            }
            for (JoinHandle<String> h : late) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("go!");
            }
            assertThat(woken.get()).as("each live awaiter ran its continuation once").isEqualTo(live.size());
        }
    }

    @Test
    void pruningKeepsEveryLiveWaiterUnderRacingPushes() throws Exception {
        for (int trial = 0; trial < 50; trial++) {
            AsyncPromise<Integer> p = new AsyncPromise<>();
            int threads = 4;
            int perThread = 200;
            List<Thread> ts = new ArrayList<>();
            List<List<Expiring>> live = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<Expiring> mine = new ArrayList<>();
                live.add(mine);
                ts.add(new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        for (int d = 0; d < 3; d++) {
                            Expiring dead = new Expiring();
                            p.poll(dead);              // registers, then expires at once
                            dead.expired = true;
                        }
                        Expiring w = new Expiring();
                        mine.add(w);
                        p.poll(w);                     // a live waiter
                    }
                }));
            }
            ts.forEach(Thread::start);
            for (Thread t : ts) {
                t.join();
            }
            assertThat(p.waiterCount()).as("entries after 2,400 stale and 800 live registrations")
                    .isLessThanOrEqualTo(bound(threads * perThread + threads));
            p.complete(1);
            for (List<Expiring> mine : live) {
                for (Expiring w : mine) {
                    assertThat(w.wakes.get()).as("a live waiter's wakes").isEqualTo(1);
                }
            }
        }
    }

    @Test
    void aWakerPolledAgainUnderNewerWaitersIsPushedAgainAndItsOlderEntriesArePruned() {
        AsyncPromise<String> p = new AsyncPromise<>();
        Expiring again = new Expiring();
        List<Expiring> others = new ArrayList<>();
        assertThat(p.poll(again).isPending()).isTrue();
        for (int round = 0; round < 30; round++) {
            for (int i = 0; i < JoinHandle.REGISTERED_LOOK; i++) {
                Expiring o = new Expiring();
                others.add(o);
                assertThat(p.poll(o).isPending()).isTrue();
            }
            assertThat(p.poll(again).isPending()).as("a spurious re-poll").isTrue();
        }
        // enough new waiters for a prune that walks the whole stack, below every entry of `again`
        int before = p.waiterCount();
        for (int i = 0; i < 2 * before; i++) {
            Expiring o = new Expiring();
            others.add(o);
            assertThat(p.poll(o).isPending()).isTrue();
        }
        assertThat(p.waiterCount(again)).as("entries of the waker polled 31 times").isEqualTo(1);
        p.complete("done");
        assertThat(again.wakes.get()).as("its wakes").isEqualTo(1);
        for (Expiring o : others) {
            assertThat(o.wakes.get()).as("another waiter's wakes").isEqualTo(1);
        }
    }

    private static void awaitPolls(AtomicInteger polls, int atLeast) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (polls.get() < atLeast && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        assertThat(polls.get()).as("awaiters that polled the signal").isGreaterThanOrEqualTo(atLeast);
    }

    /** A waker (and its own context) that counts its wakes and reports itself expired once told to. */
    static final class Expiring extends AsyncCombinatorTest.HandContext {
        volatile boolean expired;

        @Override
        public boolean expired() {
            return expired;
        }
    }
}
