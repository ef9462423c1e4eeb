/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.Parker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * {@link DrivingParker}'s slot hand-over: a worker that goes to sleep while every driver slot is
 * held, one of them only for a moment by a busy worker's {@link DrivingParker#pollNow}, is handed
 * that slot when the poll frees it, and only one such sleeper is woken per freed slot. Without the
 * hand-over a poll sweeping several slots could hide every free one from a worker going to sleep,
 * and with every other worker asleep in a slot of its own that driver's readiness was never seen
 * (connections stalled for 10 s and more with 16 driven selectors on 16 workers); waking every
 * such sleeper instead halved an echo server's throughput with fewer drivers than workers. The
 * parker is driven here by test threads standing in for the workers, with drivers that report no
 * events, so no runtime is needed.
 */
class DrivingParkerHandOverTest {

    private final List<Thread> started = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<FakeDriver> drivers = new ArrayList<>();
    private DrivingParker parker;

    @AfterEach
    void stopThreads() throws InterruptedException {
        stop.set(true);
        for (FakeDriver d : drivers) {
            d.release();
        }
        for (int w = 0; w < started.size(); w++) {
            if (parker != null) {
                parker.unpark(w);
            }
        }
        for (Thread t : started) {
            t.join(5_000);
        }
    }

    @Test
    void aSlotFreedByABusyWorkersPollGoesToTheWorkerThatSleptWithoutOne() throws Exception {
        FakeDriver d = new FakeDriver();
        drivers.add(d);
        AtomicReferenceArray<Thread> threads = new AtomicReferenceArray<>(2);
        parker = new DrivingParker(null, 2, Parker.ofThreads(this, "test", threads::get), drivers);

        d.holdNextPoll();
        Thread busy = worker(threads, 0, () -> parker.pollNow(0));
        assertThat(d.pollEntered.await(10, TimeUnit.SECONDS)).as("the busy worker polls").isTrue();

        // Worker 1 goes idle while the only slot is held by the poll: it sleeps without a slot.
        Thread sleeper = worker(threads, 1, () -> {
            while (!stop.get()) {
                parker.park(1);              // the idle loop: park again after each return
            }
        });
        awaitParked(sleeper);
        assertThat(d.sleepers.get()).isZero();

        d.releasePoll();                     // the poll ends and frees the slot; worker 0 stays busy
        busy.join(10_000);

        WakerSemanticsTest.await(() -> d.sleepers.get() > 0,
                "the worker that slept without a slot to take the freed one and wait in its select");
        assertThat(d.sleeperThread).isSameAs(sleeper);
    }

    /**
     * One freed slot wakes one sleeper, not all of them: with fewer drivers than workers most
     * idle workers sleep without a slot, and waking every one of them at each release (a driver
     * back from its events, a busy worker's poll) halved an echo server's throughput.
     */
    @Test
    void aFreedSlotWakesOneSleeperWithoutASlotNotAll() throws Exception {
        FakeDriver d = new FakeDriver();
        drivers.add(d);
        int n = 4;
        AtomicReferenceArray<Thread> threads = new AtomicReferenceArray<>(n);
        parker = new DrivingParker(null, n, Parker.ofThreads(this, "test", threads::get), drivers);
        AtomicInteger[] returns = new AtomicInteger[n];

        d.holdNextPoll();
        Thread busy = worker(threads, 0, () -> parker.pollNow(0));
        assertThat(d.pollEntered.await(10, TimeUnit.SECONDS)).isTrue();
        List<Thread> sleepers = new ArrayList<>();
        for (int w = 1; w < n; w++) {
            int me = w;
            returns[w] = new AtomicInteger();
            sleepers.add(worker(threads, w, () -> {
                while (!stop.get()) {
                    parker.park(me);
                    returns[me].incrementAndGet();
                }
            }));
        }
        for (Thread t : sleepers) {
            awaitParked(t);
        }

        d.releasePoll();
        busy.join(10_000);
        WakerSemanticsTest.await(() -> d.sleepers.get() > 0, "one sleeper to take the freed slot");
        Thread.sleep(200);                   // room for wrongly woken sleepers to show up

        int driving = sleepers.indexOf(d.sleeperThread) + 1;
        assertThat(driving).isPositive();
        for (int w = 1; w < n; w++) {
            if (w != driving) {
                assertThat(returns[w].get()).as("returns from park of worker %d, not handed the slot", w).isZero();
            }
        }
    }

    /**
     * Many workers and as many drivers, each worker alternating bursts of polls with sleeps; once
     * they all go idle, every driver must have exactly one worker waiting in its {@code select}.
     * This guards the slot ownership as a whole (a slot taken without its CAS fails it every
     * time); the narrow window of the hand-over itself is pinned by the test above, which this
     * random schedule rarely reaches.
     */
    @RepeatedTest(20)
    void onceEveryWorkerIsIdleEveryDriverHasASleeper() throws Exception {
        int n = 8;
        for (int k = 0; k < n; k++) {
            drivers.add(new FakeDriver());
            drivers.get(k).slowPolls = true;
        }
        AtomicReferenceArray<Thread> threads = new AtomicReferenceArray<>(n);
        parker = new DrivingParker(null, n, Parker.ofThreads(this, "test", threads::get), drivers);
        AtomicInteger busyLeft = new AtomicInteger(n);
        CountDownLatch go = new CountDownLatch(1);
        for (int w = 0; w < n; w++) {
            int me = w;
            worker(threads, w, () -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int burst = r.nextInt(200, 400); burst > 0; burst--) {
                    parker.pollNow(me);
                    if (r.nextInt(8) == 0) {
                        parker.parkNanos(me, r.nextInt(1, 20_000));
                    }
                }
                busyLeft.decrementAndGet();
                while (!stop.get()) {
                    parker.park(me);
                }
            });
        }
        go.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((busyLeft.get() != 0 || !everyDriverHasASleeper()) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(busyLeft.get()).as("workers still busy").isZero();
        assertThat(drivers).as("drivers with a worker waiting in select")
                .allSatisfy(d -> assertThat(d.inSelect.get()).isEqualTo(1));
    }

    private boolean everyDriverHasASleeper() {
        return drivers.stream().allMatch(d -> d.inSelect.get() == 1);
    }

    private Thread worker(AtomicReferenceArray<Thread> threads, int w, Runnable body) {
        Thread t = new Thread(body, "test-worker-" + w);
        t.setDaemon(true);
        threads.set(w, t);
        started.add(t);
        t.start();
        return t;
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        WakerSemanticsTest.await(() -> t.getState() == Thread.State.WAITING, "the idle worker to be asleep");
    }

    /**
     * A driver with no events: a blocking {@code select} waits for a sticky {@code wakeup}; a
     * poll ({@code select(0)}) can be held open by the test.
     */
    static final class FakeDriver implements IoDriver {
        final CountDownLatch pollEntered = new CountDownLatch(1);
        private final CountDownLatch pollRelease = new CountDownLatch(1);
        private volatile boolean holdPoll;
        /** Some polls take a while, so that a sleeper is more likely to find their slot held. */
        volatile boolean slowPolls;
        private final DrivingParker.TimerSleep sleep = new DrivingParker.TimerSleep();
        private volatile boolean released;
        final AtomicInteger sleepers = new AtomicInteger();
        /** 1 while a thread waits in a blocking {@code select}; more would break the contract. */
        final AtomicInteger inSelect = new AtomicInteger();
        volatile Thread sleeperThread;

        void holdNextPoll() {
            holdPoll = true;
        }

        void releasePoll() {
            pollRelease.countDown();
        }

        void release() {
            released = true;
            pollRelease.countDown();
            wakeup();
        }

        @Override
        public void claim() {
        }

        @Override
        public int select(long timeoutNanos) {
            if (timeoutNanos == 0) {
                if (holdPoll) {
                    holdPoll = false;
                    pollEntered.countDown();
                    try {
                        pollRelease.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (slowPolls && ThreadLocalRandom.current().nextInt(4) == 0) {
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(1_000, 100_000));
                }
                return sleep.select(0);      // a poll consumes a pending wake-up, as Selector's does
            }
            assertThat(inSelect.incrementAndGet()).as("one thread at a time in select").isEqualTo(1);
            sleeperThread = Thread.currentThread();
            sleepers.incrementAndGet();
            if (!released) {
                sleep.select(timeoutNanos);  // the parker's own sticky sleep
            }
            inSelect.decrementAndGet();
            return 0;
        }

        @Override
        public void dispatch() {
        }

        @Override
        public void wakeup() {
            sleep.wakeup();
        }
    }
}
