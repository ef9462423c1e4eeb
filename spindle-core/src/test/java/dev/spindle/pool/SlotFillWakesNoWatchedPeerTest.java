/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task submitted from inside a {@link WorkStealingPool} while its worker held nothing else (a
 * reply, the next link of a chain) goes to the worker's LIFO slot, which the worker takes next;
 * the fill still woke a parked peer, which on a chain of hand-offs took the next link from the
 * slot and moved the chain to its own thread, to be woken back a moment later (in
 * chained-spawn about ten wake-ups per thousand links, each a system call on the chain's path;
 * 1.0-1.5 x ForkJoinPool on 2 cores, about 2.5 x without them). A worker that parks while a peer
 * is awake now takes the pool's watcher role, and a slot fill by a chain's link (a task that
 * itself came out of the slot) wakes nobody while the role is held; a task left in a slot by a
 * spawner that then blocks is still taken, by the watcher. A fill by any other task wakes the
 * watcher as a deque push does: that task may go on computing while its child could run beside
 * it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlotFillWakesNoWatchedPeerTest {

    /**
     * One worker runs a chain's link (a task that came out of its slot) while the other has
     * parked (and, with the role, watches it): the link's submission goes to its worker's slot
     * and must wake nobody. Before, it woke the parked peer every time (one parked, nobody
     * searching).
     */
    @RepeatedTest(5)
    void aSlotFillWakesNoParkedPeerWhileOneWatches() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch peerParked = new CountDownLatch(1);
            AtomicLong wakeUps = new AtomicLong(-1);
            CountDownLatch childRan = new CountDownLatch(1);
            pool.execute(() -> asChainLink(pool, () -> {
                running.countDown();
                try {
                    peerParked.await();
                    wakeUps.set(fillCountingWakeUps(pool, childRan::countDown));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
            awaitOneParkedWatcher(pool);
            peerParked.countDown();
            assertThat(childRan.await(30, TimeUnit.SECONDS)).as("the slot's task ran").isTrue();
            assertThat(wakeUps.get()).as("wake-ups made by the slot fill").isZero();
        }
    }

    /**
     * The same fill made by a task that did not come out of the slot (a submission from outside)
     * wakes the watching peer, as a deque push would: such a task may go on computing after it
     * (`pool.execute(side); compute();`), and its child must be free to run beside it at once.
     * With every fill silent while the role was held, the child waited for the whole computation
     * or the watcher's next look (milliseconds), and a task that executed one child and computed
     * as long ran at half ForkJoinPool's throughput on 2 workers (docs/BENCHMARKS.md, Session
     * 50). This fill made no wake-up before (5 of 5 runs).
     */
    @RepeatedTest(5)
    void aFillByATaskThatDidNotComeFromTheSlotWakesTheWatchingPeer() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch peerParked = new CountDownLatch(1);
            AtomicLong wakeUps = new AtomicLong(-1);
            CountDownLatch childRan = new CountDownLatch(1);
            AtomicBoolean childRanMeanwhile = new AtomicBoolean();
            CountDownLatch peerWoken = new CountDownLatch(1);
            CountDownLatch spawnerDone = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(peerWoken::countDown);   // the peer parks again beside this awake worker
                running.countDown();
                try {
                    peerParked.await();
                    wakeUps.set(fillCountingWakeUps(pool, childRan::countDown));
                    childRanMeanwhile.set(childRan.await(30, TimeUnit.SECONDS));   // its spawner goes on
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                spawnerDone.countDown();
            });
            awaitThePeerWatching(pool, running, peerWoken);
            peerParked.countDown();
            assertThat(spawnerDone.await(60, TimeUnit.SECONDS)).as("the spawner ended").isTrue();
            assertThat(wakeUps.get()).as("wake-ups made by the slot fill of a task from outside").isPositive();
            assertThat(childRanMeanwhile).as("the child ran while its spawner went on").isTrue();
        }
    }

    /**
     * While a chain keeps one worker awake (so the other parks as the watcher), a link submits a
     * task and blocks until it has run, outside any blocking section: its slot fill wakes nobody,
     * and the watcher must take the task. No spares: only the watcher can.
     */
    @RepeatedTest(10)
    void aTaskLeftInTheSlotBehindABlockedSpawnerIsTakenByTheWatcher() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            AtomicBoolean childRan = new AtomicBoolean();
            CountDownLatch end = new CountDownLatch(1);
            pool.execute(() -> chainThenBlock(pool, 5_000, childRan, end));
            assertThat(end.await(60, TimeUnit.SECONDS)).as("the chain and its blocked link ended").isTrue();
            assertThat(childRan).as("the task its spawner waited for ran meanwhile").isTrue();
        }
    }

    /**
     * The watcher is woken for other work just after a silent slot fill, with no other core
     * worker parked to take the role: the woken task waits for the slot's task too, as does its
     * spawner. Had the woken worker run its injector task first, both workers would wait for
     * good (no spares: nothing else could run the slot's task). It takes the slot's task first.
     */
    @RepeatedTest(10)
    void aWatcherWokenForOtherWorkTakesTheSilentSlotTaskFirst() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch peerWatching = new CountDownLatch(1);
            CountDownLatch filled = new CountDownLatch(1);
            CountDownLatch slotTaskRan = new CountDownLatch(1);
            AtomicBoolean spawnerSawIt = new AtomicBoolean();
            AtomicBoolean otherSawIt = new AtomicBoolean();
            pool.execute(() -> asChainLink(pool, () -> {
                running.countDown();
                try {
                    peerWatching.await();
                    pool.execute(slotTaskRan::countDown);   // the slot, no wake-up: the peer watches
                    filled.countDown();
                    spawnerSawIt.set(slotTaskRan.await(60, TimeUnit.SECONDS));   // outlasts the other's wait
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
            awaitOneParkedWatcher(pool);
            peerWatching.countDown();
            assertThat(filled.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch otherDone = new CountDownLatch(1);
            pool.execute(() -> {               // from outside: wakes the watcher
                try {
                    otherSawIt.set(slotTaskRan.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                otherDone.countDown();
            });
            assertThat(otherDone.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(otherSawIt).as("the task the watcher was woken for saw the slot's task run "
                    + "(else only the spawner's own give-up after 60 s would have run it)").isTrue();
            assertThat(slotTaskRan.await(90, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * The role is needed only while a peer is awake (a fill while it is free wakes a peer as a
     * deque push does): a pool that is idle between submissions keeps no watcher. A submission
     * from outside wakes one worker, which must nudge nobody (its peer is parked) and, when it
     * parks again beside that parked peer, take no role. Before, the woken worker nudged its peer,
     * which took the role and watched for 3.5 to 16 ms with timed wake-ups: on 2 cores they met
     * later submissions' wake-ups, and the submit-to-start p99 went from 16-37 to 71-74 us.
     */
    @RepeatedTest(5)
    void aPoolIdleBetweenSubmissionsKeepsNoWatcher() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            for (int i = 0; i < 20; i++) {
                awaitQuietWithoutWatcher(pool);
                pool.submit(() -> 1).get(30, TimeUnit.SECONDS);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (pool.idle.parkedCount() != 2 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertThat(pool.idle.parkedCount()).as("both workers parked again").isEqualTo(2);
                for (int look = 0; look < 20; look++) {     // a nudged peer would take it at once
                    assertThat(pool.shared.watcher.isHeld())
                            .as("the role, after submission %d, look %d", i, look).isFalse();
                    Thread.sleep(0, 100_000);
                }
            }
        }
    }

    /**
     * A spare started while the role is free hands it on. The pool is quiet with no watcher (as
     * above); a submitted task wakes one core worker, which leaves with the role free and, its
     * peer parked, nudges nobody; the task then blocks in {@link dev.spindle.Spindle#blocking},
     * which starts a spare. Now two workers are awake (the blocked one and the spare) and a core
     * worker sleeps unwatching: the role's invariant asks for a watcher. The spare is awake
     * without having left a park, so only its start can pass the role on
     * ({@code BaseWorker.started}); a spare's own wait never takes the role, and it sleeps out
     * its keep-alive. Without the start hand-over the parked core worker was never nudged and
     * the role stayed free for as long as the task blocked: a task the spare's search swallowed
     * the notification of, left in a slot by a worker that then blocked, was watched by nobody.
     */
    @RepeatedTest(3)
    void aSpareStartedWhileTheRoleIsFreeHandsItOn() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(1).build()) {
            awaitQuietWithoutWatcher(pool);
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Future<?> blocker = pool.submit(() -> {
                dev.spindle.Spindle.blocking(() -> {
                    blocked.countDown();
                    release.await();
                });
                return null;
            });
            try {
                assertThat(blocked.await(30, TimeUnit.SECONDS)).as("the task blocks").isTrue();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!pool.shared.watcher.isHeld() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertThat(pool.stats().liveWorkers()).as("a spare started for the blocked worker").isEqualTo(3);
                assertThat(pool.shared.watcher.isHeld())
                        .as("the parked core worker holds the role while its peers are awake").isTrue();
            } finally {
                release.countDown();
            }
            blocker.get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Two spawners at once: on three workers, two run a task each while the third parks and holds
     * the role; each task then fills its own slot (no wake-up: the peer watches) and blocks,
     * outside any blocking section, until both slots' tasks have run. No spares, and neither
     * spawner lets its worker go before both tasks ran: only the watcher can run them, one after
     * the other, the second found by the search it makes once the first took it out of its wait.
     */
    @RepeatedTest(5)
    void twoSpawnersBlockedBehindTheirSlotsAreBothServedByTheWatcher() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3).maxSpareWorkers(0).build()) {
            awaitQuiet(pool, 3);
            CountDownLatch running = new CountDownLatch(2);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch slotTasksRan = new CountDownLatch(2);
            CountDownLatch spawnersDone = new CountDownLatch(2);
            AtomicLong spawnersThatSawBoth = new AtomicLong();
            AtomicLong wakeUps = new AtomicLong();
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> asChainLink(pool, () -> {
                    running.countDown();
                    try {
                        go.await();
                        wakeUps.addAndGet(fillCountingWakeUps(pool, slotTasksRan::countDown));
                        if (slotTasksRan.await(30, TimeUnit.SECONDS)) {
                            spawnersThatSawBoth.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    spawnersDone.countDown();
                }));
            }
            assertThat(running.await(30, TimeUnit.SECONDS)).as("both spawners run").isTrue();
            awaitOneParkedWatcher(pool);
            go.countDown();
            assertThat(spawnersDone.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(spawnersThatSawBoth).as("spawners that saw both slots' tasks run while they waited").hasValue(2);
            assertThat(wakeUps).as("wake-ups made by the two fills (so the watcher's looks found both)").hasValue(0);
        }
    }

    /**
     * As {@link #aWatcherWokenForOtherWorkTakesTheSilentSlotTaskFirst}, with two spawners: on
     * three workers two run a chain's link each, fill their slots silently (the third parks and
     * watches) and wait for both slots' tasks; then a task from outside, which waits for them
     * too, wakes the watcher. Leaving with the role free and no core worker parked, it took one
     * slot's task before the injector, and "woke a worker" for the other, which did nothing (it
     * counted as searching itself, and nobody was parked): it then ran the injector's task ahead
     * of the second slot's, and with all three workers waiting only that task's own give-up
     * (a timed wait here; no spares) let the second slot's task run. It takes both slots' tasks
     * before the injector's.
     */
    @RepeatedTest(10)
    void aWatcherWokenForOtherWorkTakesBothSilentSlotTasksFirst() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3).maxSpareWorkers(0).build()) {
            awaitQuiet(pool, 3);
            CountDownLatch running = new CountDownLatch(2);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch filled = new CountDownLatch(2);
            CountDownLatch slotTasksRan = new CountDownLatch(2);
            CountDownLatch spawnersDone = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> asChainLink(pool, () -> {
                    running.countDown();
                    try {
                        go.await();
                        pool.execute(slotTasksRan::countDown);   // the slot, no wake-up: the peer watches
                        filled.countDown();
                        slotTasksRan.await(60, TimeUnit.SECONDS);   // outlasts the other's wait
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    spawnersDone.countDown();
                }));
            }
            assertThat(running.await(30, TimeUnit.SECONDS)).as("both spawners run").isTrue();
            awaitOneParkedWatcher(pool);
            go.countDown();
            assertThat(filled.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch otherDone = new CountDownLatch(1);
            AtomicBoolean otherSawBoth = new AtomicBoolean();
            pool.execute(() -> {               // from outside: wakes the watcher
                try {
                    otherSawBoth.set(slotTasksRan.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                otherDone.countDown();
            });
            assertThat(otherDone.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(spawnersDone.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(otherSawBoth).as("the task the watcher was woken for saw both slots' tasks run "
                    + "(else only its own give-up after 10 s let the second one run)").isTrue();
        }
    }

    /** Waits until all {@code workers} are parked and nobody holds the role. */
    private static void awaitQuiet(WorkStealingPool pool, int workers) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((pool.idle.parkedCount() != workers || pool.shared.watcher.isHeld()) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(pool.idle.parkedCount()).as("every worker parked").isEqualTo(workers);
        assertThat(pool.shared.watcher.isHeld()).as("the role given up").isFalse();
    }

    /** Waits until both workers are parked and nobody holds the role (a watcher gives it up). */
    private static void awaitQuietWithoutWatcher(WorkStealingPool pool) throws InterruptedException {
        awaitQuiet(pool, 2);
    }

    /** The commonest such wait, a {@code CompletableFuture} on the pool joined inside a task. */
    @RepeatedTest(5)
    void aCompletableFutureJoinedInsideABusyPoolCompletes() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            Future<Integer> outer = pool.submit(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).get(30, TimeUnit.SECONDS) + 1);
            assertThat(outer.get(60, TimeUnit.SECONDS)).isEqualTo(42);
        }
    }

    /**
     * Waits until the task that counts {@code running} down runs, the task it submitted first
     * ({@code peerWoken}: it woke the other worker, or the watcher took it) has run, and the
     * other worker has parked again, beside an awake peer, and holds the watcher role. (The role
     * is taken only while a peer is awake: a worker parked since the pool went quiet does not
     * hold it, and a fill would wake it.)
     */
    private static void awaitThePeerWatching(WorkStealingPool pool, CountDownLatch running, CountDownLatch peerWoken)
            throws InterruptedException {
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(peerWoken.await(30, TimeUnit.SECONDS)).as("the first submitted task ran").isTrue();
        awaitOneParkedWatcher(pool);
    }

    /** Waits until exactly one worker is parked and holds the watcher role. */
    private static void awaitOneParkedWatcher(WorkStealingPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((pool.idle.parkedCount() != 1 || !pool.shared.watcher.isHeld()) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(pool.idle.parkedCount()).as("one worker parked").isEqualTo(1);
        assertThat(pool.shared.watcher.isHeld()).as("the parked worker holds the role").isTrue();
    }

    /**
     * Submits {@code task} from the running task, whose worker holds nothing else, so it goes to
     * the worker's slot; returns the wake-ups the pool made meanwhile.
     */
    private static long fillCountingWakeUps(WorkStealingPool pool, Runnable task) {
        long before = pool.idle.wakes();
        pool.execute(task);
        return pool.idle.wakes() - before;
    }

    /**
     * Runs {@code body} as a link of a chain: in a task that came out of its worker's LIFO slot,
     * whose own slot fill may be silent. Submitted from a task, the link goes to that worker's
     * slot; a peer may steal it from there instead, and then hands it on again, until a worker
     * takes it from its own slot.
     */
    private static void asChainLink(WorkStealingPool pool, Runnable body) {
        pool.execute(new Runnable() {
            @Override
            public void run() {
                if (pool.currentWorker().runsSlotTask) {
                    body.run();
                } else {
                    pool.execute(this);
                }
            }
        });
    }

    private static void chainThenBlock(WorkStealingPool pool, int left, AtomicBoolean childRan, CountDownLatch end) {
        if (left > 0) {
            pool.execute(() -> chainThenBlock(pool, left - 1, childRan, end));
            return;
        }
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            childRan.set(true);
            ran.countDown();
        });
        try {
            if (ran.await(30, TimeUnit.SECONDS)) {
                end.countDown();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
