/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SemaphoreTest {

    /** A context of its own per waiter, counting the wakes. */
    private static final class Ctx extends AsyncCombinatorTest.HandContext {
    }

    @Test
    void waitersAreServedFirstComeFirstServed() {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        Ctx cx = new Ctx();
        assertThat(sem.acquire().poll(cx).isReady()).isTrue();
        List<AsyncTask<Void>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiting.add(sem.acquire());
            assertThat(waiting.get(i).poll(cx).isPending()).isTrue();
        }
        assertThat(sem.tryAcquire()).isFalse();
        sem.release();
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThat(sem.tryAcquire()).as("a newcomer does not overtake").isFalse();
        assertThat(waiting.get(1).poll(cx).isPending()).isTrue();
        assertThat(waiting.get(2).poll(cx).isPending()).isTrue();
        assertThat(waiting.get(0).poll(cx).isReady()).isTrue();
        Async.cancel(waiting.get(1)); // leaves the queue
        sem.release();
        assertThat(waiting.get(2).poll(cx).isReady()).isTrue();
        sem.release();
        assertThat(sem.availablePermits()).isEqualTo(1);
    }

    @Test
    void aCancelledGrantPassesThePermitOn() {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        Ctx cx = new Ctx();
        AsyncTask<Void> a = sem.acquire();
        AsyncTask<Void> b = sem.acquire();
        assertThat(a.poll(cx).isPending()).isTrue();
        assertThat(b.poll(cx).isPending()).isTrue();
        sem.release(); // granted to a
        Async.cancel(a); // a never returned it: b gets it
        assertThat(b.poll(cx).isReady()).isTrue();
        assertThat(sem.availablePermits()).isZero();
    }

    @Test
    void permitsAreNeverExceededUnderStress() throws Exception {
        int permits = 3;
        int threads = 8;
        int rounds = 3_000;
        AsyncSemaphore sem = new AsyncSemaphore(permits);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ts.add(new Thread(() -> {
                TestExecutor ex = new TestExecutor(4, 30_000);
                // several tasks per thread, so waiters also come from the same executor
                List<AsyncTask<Integer>> tasks = new ArrayList<>();
                for (int k = 0; k < 3; k++) {
                    tasks.add(Async.loop(0, (Integer i) -> i == rounds
                            ? Async.ready(Async.Step.<Integer, Integer>done(i))
                            : Async.then(sem.acquire(), x -> {
                                int now = inside.incrementAndGet();
                                maxInside.accumulateAndGet(now, Math::max);
                                return Async.map(Async.yieldNow(), y -> {
                                    inside.decrementAndGet();
                                    sem.release();
                                    completed.incrementAndGet();
                                    return Async.Step.<Integer, Integer>next(i + 1);
                                });
                            })));
                }
                try {
                    ex.blockOn(Async.all(tasks));
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        ts.forEach(Thread::start);
        for (Thread t : ts) {
            t.join(30_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(errors).isEmpty();
        assertThat(completed.get()).isEqualTo(threads * 3 * rounds);
        assertThat(maxInside.get()).isLessThanOrEqualTo(permits).isGreaterThanOrEqualTo(1);
        assertThat(sem.availablePermits()).isEqualTo(permits);
    }

    @Test
    void cancelledWaitersLeaveFromAnywhereInTheQueueAndTheRestKeepTheirOrder() {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        List<AsyncTask<Void>> ops = new ArrayList<>();
        List<Ctx> cxs = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            AsyncTask<Void> op = sem.acquire();
            Ctx cx = new Ctx();
            assertThat(op.poll(cx).isPending()).isTrue();
            ops.add(op);
            cxs.add(cx);
        }
        for (int i : new int[] {0, 3, 6, 4}) {  // the oldest, a middle one, the newest, another
            Async.cancel(ops.get(i));
        }
        for (int i : new int[] {1, 2, 5}) {     // the rest, oldest first
            sem.release();
            assertThat(cxs.get(i).wakes.get()).as("waiter %d woken by a release", i).isEqualTo(1);
            assertThat(ops.get(i).poll(cxs.get(i)).isReady()).as("waiter %d holds the permit", i).isTrue();
        }
        for (int i : new int[] {0, 3, 4, 6}) {
            assertThat(cxs.get(i).wakes.get()).as("cancelled waiter %d", i).isZero();
        }
        sem.release();
        assertThat(sem.availablePermits()).as("a release with nobody left waiting").isEqualTo(1);
    }
}
