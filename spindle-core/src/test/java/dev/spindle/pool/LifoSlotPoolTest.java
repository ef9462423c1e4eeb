/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The LIFO slot of a {@link WorkStealingPool} worker (see {@link Worker}, "the LIFO slot"; its
 * order is the one LIFO order that {@code WorkerForkStackTest} checks): a chain of hand-offs through the slot
 * cannot starve the deque, every task runs exactly once when peers steal from the slot, a task
 * left in the slot by a spawner that then blocks is taken by a peer, and shutdownNow returns it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifoSlotPoolTest {

    private static final int CHAIN = 10_000;

    /**
     * One worker, so nothing is stolen. The first task submits X and then A, which starts an
     * endless-looking chain (A submits the next link, up to {@value #CHAIN} links). Without a
     * bound on the slot (or, before the slot, on the deque where each link was pushed to the
     * bottom and popped next) X waited for the whole chain; now the deque gets a turn after
     * {@value Worker#LIFO_MAX} slot tasks in a row, so X runs within a few links.
     */
    @Test
    void aChainOfHandOffsDoesNotStarveTheDeque() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            AtomicInteger links = new AtomicInteger();
            AtomicInteger linksBeforeX = new AtomicInteger(-1);
            CountDownLatch done = new CountDownLatch(2);
            pool.execute(() -> {
                pool.execute(() -> {                           // X
                    linksBeforeX.set(links.get());
                    done.countDown();
                });
                pool.execute(() -> link(pool, links, done));   // A, the chain
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).as("chain and X finished").isTrue();
            assertThat(links.get()).isEqualTo(CHAIN);
            assertThat(linksBeforeX.get()).as("links run before X").isBetween(0, 2 * Worker.LIFO_MAX + 2);
        }
    }

    private static void link(WorkStealingPool pool, AtomicInteger links, CountDownLatch done) {
        if (links.incrementAndGet() < CHAIN) {
            pool.execute(() -> link(pool, links, done));
        } else {
            done.countDown();
        }
    }

    /**
     * Many chains on four workers: thieves take tasks from the slots (and deques) while their
     * owners take them; every task must run exactly once.
     */
    @RepeatedTest(5)
    void everyTaskRunsExactlyOnceWhilePeersStealFromTheSlot() throws Exception {
        int chains = 200;
        int length = 200;
        AtomicIntegerArray runs = new AtomicIntegerArray(chains * length);
        CountDownLatch done = new CountDownLatch(chains);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(4).build()) {
            for (int c = 0; c < chains; c++) {
                int chain = c;
                pool.execute(() -> step(pool, chain, 0, length, runs, done));
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).as("all chains finished").isTrue();
        }
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
        }
    }

    private static void step(WorkStealingPool pool, int chain, int i, int length,
                             AtomicIntegerArray runs, CountDownLatch done) {
        runs.incrementAndGet(chain * length + i);
        if (i + 1 < length) {
            pool.execute(() -> step(pool, chain, i + 1, length, runs, done));
            if ((i & 7) == 0) {
                Thread.onSpinWait();           // let a thief catch the slot now and then
            }
        } else {
            done.countDown();
        }
    }

    /**
     * A task submits a runnable (into its worker's slot) and then blocks, outside any blocking
     * section, until that runnable has run: a peer must take it from the slot.
     */
    @RepeatedTest(20)
    void aPeerTakesTheSlotsTaskWhenItsSpawnerBlocks() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch childRan = new CountDownLatch(1);
            CountDownLatch parentDone = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(childRan::countDown);
                try {
                    if (childRan.await(20, TimeUnit.SECONDS)) {
                        parentDone.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(parentDone.await(30, TimeUnit.SECONDS)).as("child ran while its spawner waited").isTrue();
        }
    }

    /** shutdownNow returns a task waiting in the slot of a worker whose task blocks. */
    @Test
    void shutdownNowReturnsTheSlotsTask() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build();
        CountDownLatch submitted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger childRuns = new AtomicInteger();
        Runnable child = childRuns::incrementAndGet;
        pool.execute(() -> {
            pool.execute(child);
            submitted.countDown();
            boolean interrupted = false;
            for (;;) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(submitted.await(30, TimeUnit.SECONDS)).isTrue();
        List<Runnable> notStarted = pool.shutdownNow();
        release.countDown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(notStarted).containsExactly(child);
        assertThat(childRuns.get()).isZero();
    }

    /**
     * One worker, and this test's thread as a thief on its deque (the test is in the pool's
     * package). Each link of a chain submits the next link (into the slot) and a no-op (into
     * the deque), which the thief keeps stealing. After {@value Worker#LIFO_MAX} slot tasks the
     * worker gives the deque a turn; when the thief empties the deque between the worker's look
     * and its pop, the worker must still run the slot's task. Before the fix it went searching
     * with its slot full and parked, where its own re-check does not look, and the chain stalled
     * (the JDK 25 bench run of the first version hung at the pool's termination that way). Every
     * no-op runs exactly once, on the worker or here.
     */
    @Test
    void aWorkerDoesNotParkWithATaskInItsSlotWhenAThiefEmptiesTheDeque() throws Exception {
        int rounds = 200;
        int links = 2_000;
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            AtomicInteger noops = new AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread thief = new Thread(() -> {
                while (!stop.get()) {
                    Worker w = pool.shared.workers[0];
                    if (w == null) {
                        continue;
                    }
                    var r = w.deque.steal();
                    if (r.isSuccess()) {
                        r.value().run();
                    }
                }
            }, "thief");
            thief.start();
            try {
                for (int round = 0; round < rounds; round++) {
                    CountDownLatch done = new CountDownLatch(1);
                    pool.execute(() -> noisyLink(pool, links, noops, done));
                    assertThat(done.await(10, TimeUnit.SECONDS)).as("round %d finished", round).isTrue();
                }
            } finally {
                stop.set(true);
                thief.join(10_000);
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(noops.get()).isEqualTo(rounds * links);
        }
    }

    private static void noisyLink(WorkStealingPool pool, int left, AtomicInteger noops, CountDownLatch done) {
        if (left == 0) {
            done.countDown();
            return;
        }
        pool.execute(() -> noisyLink(pool, left - 1, noops, done));
        pool.execute(noops::incrementAndGet);
    }
}
