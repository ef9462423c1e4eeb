/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The waker contract under both policies: double wakes, wakes during and after polls. */
class WakerSemanticsTest {

    static final long WAIT_S = 10;

    /**
     * A task that counts its polls, keeps its waker, fails loudly if two threads poll it at once,
     * and returns ready (its poll count) once {@link #finish} is set.
     */
    static final class Probe implements AsyncTask<Integer> {
        final AtomicInteger polls = new AtomicInteger();
        final Semaphore polled = new Semaphore(0);
        final AtomicBoolean inside = new AtomicBoolean();
        final AtomicInteger overlaps = new AtomicInteger();
        volatile boolean finish;
        volatile Waker waker;

        @Override
        public Poll<Integer> poll(Context cx) {
            if (!inside.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            try {
                waker = cx.waker();
                int n = polls.incrementAndGet();
                return finish ? Poll.ready(n) : Poll.pending();
            } finally {
                inside.set(false);
                polled.release();
            }
        }

        void awaitPolls(int n) throws InterruptedException {
            assertThat(polled.tryAcquire(n, WAIT_S, TimeUnit.SECONDS))
                    .as("waited for %d more polls", n).isTrue();
        }
    }

    /** A task that blocks its worker inside its poll until {@link #release} (bounded). */
    static final class Blocker implements AsyncTask<Void> {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch gate = new CountDownLatch(1);

        @Override
        public Poll<Void> poll(Context cx) {
            started.countDown();
            try {
                gate.await(WAIT_S, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Poll.ready(null);
        }

        void awaitStarted() throws InterruptedException {
            assertThat(started.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
        }

        void release() {
            gate.countDown();
        }
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for " + what).isNegative();
            Thread.sleep(1);
        }
    }

    static void awaitIdle(JoinHandle<?> h) throws InterruptedException {
        await(() -> h.state() == TaskCell.IDLE, "the task to be idle");
    }

    static AsyncRuntime oneWorker(AsyncPolicy policy) {
        return AsyncRuntime.builder().workers(1).policy(policy).name("test-" + policy).build();
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void twoWakesBeforeThePollCauseOnePoll(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = oneWorker(policy)) {
            Probe p = new Probe();
            JoinHandle<Integer> h = rt.spawn(p);
            p.awaitPolls(1);
            awaitIdle(h);
            Blocker b = new Blocker();
            rt.spawn(b);
            b.awaitStarted();                  // the only worker is busy: nothing polls p
            p.waker.wake();
            p.waker.wake();
            assertThat(h.state()).isEqualTo(TaskCell.SCHEDULED);
            b.release();
            p.awaitPolls(1);
            awaitIdle(h);
            assertThat(h.wakeCount()).isEqualTo(2);
            assertThat(p.polls.get()).isEqualTo(2);
            p.finish = true;
            p.waker.wake();
            assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(p.overlaps.get()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aWakeDuringThePollMakesItRunAgain(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = oneWorker(policy)) {
            CountDownLatch inPoll = new CountDownLatch(1);
            CountDownLatch woken = new CountDownLatch(1);
            AtomicInteger polls = new AtomicInteger();
            AtomicReference<Waker> waker = new AtomicReference<>();
            JoinHandle<Integer> h = rt.spawn(cx -> {
                int n = polls.incrementAndGet();
                if (n == 1) {
                    waker.set(cx.waker());
                    inPoll.countDown();
                    try {
                        woken.await(WAIT_S, TimeUnit.SECONDS); // a foreign thread wakes us now
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return Poll.pending();
                }
                if (n == 2) {
                    cx.waker().wake();         // and a wake from inside the poll itself
                    return Poll.pending();
                }
                return Poll.ready(n);
            });
            assertThat(inPoll.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            TaskCell<Integer> c = (TaskCell<Integer>) h;
            assertThat(c.state()).isEqualTo(TaskCell.SCHEDULED);  // polled: the word says scheduled
            assertThat(c.polledBy).isEqualTo(1);
            waker.get().wake();                // only counts: the poller sees it when it ends
            assertThat(c.state()).isEqualTo(TaskCell.SCHEDULED);
            assertThat(c.wakeCount()).isEqualTo(1);
            woken.countDown();
            assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(h.wakeCount()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aWakeAfterCompletionDoesNothing(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = oneWorker(policy)) {
            Probe p = new Probe();
            p.finish = true;
            JoinHandle<Integer> h = rt.spawn(p);
            assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(1);
            for (int i = 0; i < 10; i++) {
                p.waker.wake();
            }
            assertThat(h.state()).isEqualTo(TaskCell.DONE);
            assertThat(h.wakeCount()).isZero();
            String barrier = rt.run(cx -> Poll.ready("barrier"));
            assertThat(barrier).isEqualTo("barrier");
            assertThat(p.polls.get()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void wakesFromForeignThreadsAreAllCountedAndNeverOverlapPolls(AsyncPolicy policy)
            throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build()) {
            Probe p = new Probe();
            JoinHandle<Integer> h = rt.spawn(p);
            p.awaitPolls(1);
            int threads = 4;
            int each = 2_000;
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread th = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        p.waker.wake();
                    }
                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join(TimeUnit.SECONDS.toMillis(WAIT_S));
            }
            p.finish = true;
            p.waker.wake();
            int polls = h.get(WAIT_S, TimeUnit.SECONDS);
            assertThat(h.wakeCount()).isEqualTo(threads * each + 1);
            assertThat(polls).isBetween(2, threads * each + 2);
            assertThat(p.overlaps.get()).isZero();
        }
    }

    /**
     * Many tasks, each finishing on its 40th poll, woken at random by several threads (and by
     * themselves) until all are done: every poll must be alone, and the total is exact.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void exactlyOncePollingUnderStress(AsyncPolicy policy) throws Exception {
        int tasks = 200;
        int pollsEach = 40;
        AtomicLong totalPolls = new AtomicLong();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger remaining = new AtomicInteger(tasks);
        Waker[] wakers = new Waker[tasks];
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(4).policy(policy).build()) {
            List<JoinHandle<Integer>> hs = new ArrayList<>();
            CountDownLatch firstPolls = new CountDownLatch(tasks);
            for (int i = 0; i < tasks; i++) {
                int id = i;
                hs.add(rt.spawn(new AsyncTask<>() {
                    final AtomicBoolean inside = new AtomicBoolean();
                    int polls;                 // plain: polls must be ordered by the runtime
                    boolean done;

                    @Override
                    public Poll<Integer> poll(Context cx) {
                        if (!inside.compareAndSet(false, true) || done) {
                            violations.incrementAndGet();
                        }
                        totalPolls.incrementAndGet();
                        int n = ++polls;
                        if (n == 1) {
                            wakers[id] = cx.waker();
                            firstPolls.countDown();
                        }
                        if ((n & 7) == 3) {
                            cx.waker().wake();
                        }
                        inside.set(false);
                        if (n == pollsEach) {
                            done = true;
                            remaining.decrementAndGet();
                            return Poll.ready(n);
                        }
                        return Poll.pending();
                    }
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            List<Thread> ts = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            for (int t = 0; t < 3; t++) {
                int seed = t;
                Thread th = new Thread(() -> {
                    java.util.Random rnd = new java.util.Random(seed);
                    while (remaining.get() > 0 && System.nanoTime() < deadline) {
                        wakers[rnd.nextInt(tasks)].wake();
                    }
                });
                ts.add(th);
                th.start();
            }
            for (JoinHandle<Integer> h : hs) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(pollsEach);
            }
            for (Thread th : ts) {
                th.join();
            }
            assertThat(violations.get()).isZero();
            assertThat(totalPolls.get()).isEqualTo((long) tasks * pollsEach);
            long statPolls = rt.stats().polls();
            assertThat(statPolls).isEqualTo((long) tasks * pollsEach);
        }
    }
}
