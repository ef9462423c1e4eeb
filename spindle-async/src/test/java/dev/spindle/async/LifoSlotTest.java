/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The LIFO slot of a worker ({@link AsyncWorker}): a task woken by the task running on a worker
 * runs right after it, ahead of the tasks already queued, but a chain of tasks waking each other
 * through the slot gives way to the queue after {@link AsyncWorker#LIFO_MAX} turns. Orders and
 * counts on one worker, no timing.
 */
class LifoSlotTest {

    /** Records its name on every poll after the first; pending until {@link #done}. */
    static final class Named implements AsyncTask<Void> {
        final String name;
        final List<String> log;
        final CountDownLatch firstPoll = new CountDownLatch(1);
        volatile Waker waker;
        volatile boolean done = true;
        private int polls;

        Named(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public Poll<Void> poll(Context cx) {
            if (polls++ == 0) {
                waker = cx.waker();
                firstPoll.countDown();
                return Poll.pending();
            }
            log.add(name);
            return done ? Poll.ready(null) : Poll.pending();
        }
    }

    /**
     * WORK_STEALING: {@code a} is woken by the running driver after three tasks were woken from
     * outside; it runs first. HYBRID has no slot (its hot queue decides): there {@code a} waits
     * its turn, the queue order being first come, first served among tasks woken once.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskWokenByTheRunningTaskRunsNextAheadOfTheQueue(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).build()) {
            List<String> log = new CopyOnWriteArrayList<>();
            Named a = new Named("a", log);
            Named[] queued = {new Named("q1", log), new Named("q2", log), new Named("q3", log)};
            rt.spawn(a);
            for (Named q : queued) {
                rt.spawn(q);
            }
            assertThat(a.firstPoll.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            for (Named q : queued) {
                assertThat(q.firstPoll.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            }
            CountDownLatch inDriver = new CountDownLatch(1);
            CountDownLatch queuedUp = new CountDownLatch(1);
            JoinHandle<Void> driver = rt.spawn(cx -> {
                inDriver.countDown();
                try {
                    assertThat(queuedUp.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                log.add("driver");
                a.waker.wake();                // woken by the running task: the slot
                return Poll.ready(null);
            });
            assertThat(inDriver.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            for (Named q : queued) {
                q.waker.wake();                // woken from outside while the worker is busy
            }
            queuedUp.countDown();
            driver.get(WAIT_S, TimeUnit.SECONDS);
            WakerSemanticsTest.await(() -> log.size() == 5, "every task to run");
            if (policy == AsyncPolicy.WORK_STEALING) {
                assertThat(log).containsExactly("driver", "a", "q1", "q2", "q3");
            } else {
                assertThat(log).containsExactly("driver", "q1", "q2", "q3", "a");
            }
        }
    }

    /** A task spawned by the running task runs next too, before what was woken earlier. */
    @org.junit.jupiter.api.Test
    void aTaskSpawnedByTheRunningTaskRunsNext() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            List<String> log = new CopyOnWriteArrayList<>();
            Named q = new Named("q", log);
            rt.spawn(q);
            assertThat(q.firstPoll.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            JoinHandle<JoinHandle<Void>> driver = rt.spawn(cx -> {
                q.waker.wake();                // before the spawn: q is displaced to the queue
                log.add("driver");
                return Poll.ready(rt.spawn(c2 -> {
                    log.add("child");
                    return Poll.ready(null);
                }));
            });
            driver.get(WAIT_S, TimeUnit.SECONDS).get(WAIT_S, TimeUnit.SECONDS);
            WakerSemanticsTest.await(() -> log.size() == 3, "every task to run");
            assertThat(log).containsExactly("driver", "child", "q");
        }
    }

    /**
     * Of several tasks spawned in one poll, the first keeps the slot and the others go straight
     * to the deque (popped newest-first), so a loop of spawns does not exchange the slot each
     * time; a wake-up after them still takes the slot over. On one worker the order shows it:
     * the slot's task, then the deque's newest first, then the woken task's turn came first.
     */
    @org.junit.jupiter.api.Test
    void ofTasksSpawnedInOnePollTheFirstKeepsTheSlotAndAWakeTakesItOver() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            List<String> log = new CopyOnWriteArrayList<>();
            JoinHandle<Void> spawner = rt.spawn(cx -> {
                for (String name : List.of("s1", "s2", "s3")) {
                    rt.spawn(c2 -> {
                        log.add(name);
                        return Poll.ready(null);
                    });
                }
                return Poll.ready(null);
            });
            spawner.get(WAIT_S, TimeUnit.SECONDS);
            WakerSemanticsTest.await(() -> log.size() == 3, "every spawned task to run");
            assertThat(log).containsExactly("s1", "s3", "s2");

            log.clear();
            Named q = new Named("q", log);
            rt.spawn(q);
            assertThat(q.firstPoll.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            JoinHandle<Void> driver = rt.spawn(cx -> {
                for (String name : List.of("t1", "t2")) {
                    rt.spawn(c2 -> {
                        log.add(name);
                        return Poll.ready(null);
                    });
                }
                q.waker.wake();                // takes the slot from t1, which goes to the deque
                return Poll.ready(null);
            });
            driver.get(WAIT_S, TimeUnit.SECONDS);
            WakerSemanticsTest.await(() -> log.size() == 3, "every task to run");
            assertThat(log).containsExactly("q", "t1", "t2");
        }
    }

    /**
     * Two tasks that wake each other on every poll would run through the slot forever; a task
     * woken meanwhile from outside waits in the wake channel and must still get its turn, within
     * a few of their polls. (HYBRID, without a slot, bounds it by its batches.)
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void tasksWakingEachOtherThroughTheSlotDoNotStarveAQueuedTask(AsyncPolicy policy) {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).build()) {
                List<String> log = new CopyOnWriteArrayList<>();
                Named q = new Named("q", log);
                rt.spawn(q);
                assertThat(q.firstPoll.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
                AtomicInteger pingPongPolls = new AtomicInteger();
                AtomicReference<Waker> other = new AtomicReference<>();
                AtomicInteger atWake = new AtomicInteger(-1);
                AtomicInteger atQ = new AtomicInteger(-1);
                CountDownLatch running = new CountDownLatch(1);
                AsyncTask<Void> pingPong = cx -> {
                    if (q.log.contains("q")) {
                        atQ.compareAndSet(-1, pingPongPolls.get());
                        if (pingPongPolls.get() > atQ.get() + 10) {
                            return Poll.ready(null);    // well after q ran: stop
                        }
                    }
                    pingPongPolls.incrementAndGet();
                    running.countDown();
                    Waker mine = cx.waker();
                    Waker peer = other.getAndSet(mine);
                    if (peer != null && peer != mine) {
                        peer.wake();                    // the peer, through the slot
                    }
                    return Poll.pending();
                };
                JoinHandle<Void> ping = rt.spawn(pingPong);
                JoinHandle<Void> pong = rt.spawn(pingPong);
                assertThat(running.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
                WakerSemanticsTest.await(() -> pingPongPolls.get() > 100, "the ping-pong to get going");
                q.waker.wake();
                // Counted after the wake returned, so at or after the moment it took effect: the
                // polls counted from here all come after it. (Counted before the wake, the
                // window between the read and the wake, where this thread may be descheduled
                // while the worker polls on, was charged to the runtime: 11 polls under load.)
                atWake.set(pingPongPolls.get());
                WakerSemanticsTest.await(() -> atQ.get() >= 0, "the queued task to run");
                assertThat(atQ.get() - atWake.get())
                        .as("ping-pong polls between the queued task's wake-up and its poll")
                        .isLessThanOrEqualTo(2 * (AsyncWorker.LIFO_MAX + 1));
                ping.cancel(false);
                pong.cancel(false);
            }
        });
    }
    /**
     * A chain in which every task spawns the next runs through the slot, past LIFO_MAX without
     * a detour through the deque; the worker must still look at the injector as often, so a
     * task spawned from outside meanwhile runs while the chain goes on (which it stops).
     */
    @Test
    @SuppressWarnings("unchecked")
    void aChainOfSpawnsThroughTheSlotDoesNotStarveTheInjector() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger links = new AtomicInteger();
                CountDownLatch chainRunning = new CountDownLatch(1);
                CompletableFuture<Integer> chainEnd = new CompletableFuture<>();
                AsyncTask<Void>[] link = new AsyncTask[1];
                link[0] = cx -> {
                    links.incrementAndGet();
                    chainRunning.countDown();
                    if (stop.get()) {
                        chainEnd.complete(links.get());
                    } else {
                        rt.spawn(link[0]);
                    }
                    return Poll.ready(null);
                };
                rt.spawn(link[0]);
                assertThat(chainRunning.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
                rt.spawn(cx -> {
                    stop.set(true);                    // runs only if the injector is looked at
                    return Poll.ready(null);
                });
                assertThat(chainEnd.get(WAIT_S, TimeUnit.SECONDS)).isPositive();
            }
        });
    }

    /**
     * Two tasks that take turns, each waking the other from its poll, so that every hand-off
     * goes through the LIFO slot, on more workers than pairs (idle workers search, and steal
     * from busy workers' slots while their owners take them back). Checked: no task is ever
     * polled by two threads at once, every turn is taken exactly once, and no wake-up is lost
     * (all pairs finish). A steal from the slot that drops the cell it took makes it time out.
     */
    static final class Player implements AsyncTask<Integer> {
        final int side;
        final AtomicInteger turn;
        final int turns;
        final AtomicInteger overlaps;
        final AtomicBoolean inPoll = new AtomicBoolean();
        volatile Player partner;
        volatile Waker waker;
        private int taken;

        Player(int side, AtomicInteger turn, int turns, AtomicInteger overlaps) {
            this.side = side;
            this.turn = turn;
            this.turns = turns;
            this.overlaps = overlaps;
        }

        @Override
        public Poll<Integer> poll(Context cx) {
            if (!inPoll.compareAndSet(false, true)) {
                overlaps.incrementAndGet();    // polled on two threads at once
                throw new IllegalStateException("polled while being polled");
            }
            try {
                waker = cx.waker();            // before reading the turn: see the partner's wake
                int t = turn.get();
                if (t < turns && t % 2 == side) {
                    taken++;
                    turn.set(t + 1);
                    Waker p = partner.waker;
                    if (p != null) {
                        p.wake();              // the running task's wake: into this worker's slot
                    }
                    t++;
                }
                return t >= turns ? Poll.ready(taken) : Poll.pending();
            } finally {
                inPoll.set(false);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 16})
    void handOffsThroughTheSlotRacingThievesPollEachTaskOnceAtATime(int pairs) {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            int turns = 20_000;
            AtomicInteger overlaps = new AtomicInteger();
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(4).name("slot-race").build()) {
                List<JoinHandle<Integer>> handles = new ArrayList<>();
                for (int i = 0; i < pairs; i++) {
                    AtomicInteger turn = new AtomicInteger();
                    Player a = new Player(0, turn, turns, overlaps);
                    Player b = new Player(1, turn, turns, overlaps);
                    a.partner = b;
                    b.partner = a;
                    handles.add(rt.spawn(a));
                    handles.add(rt.spawn(b));
                }
                for (JoinHandle<Integer> h : handles) {
                    assertThat(h.get(WAIT_S * 4L, TimeUnit.SECONDS)).isEqualTo(turns / 2);
                }
            }
            assertThat(overlaps.get()).isZero();
        });
    }
}
