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
 * The LIFO slot of a {@link WorkStealingPool} worker (see {@link Worker}, "the LIFO slot"): the
 * first runnable a task submits runs next on its worker, a chain of hand-offs through the slot
 * cannot starve the deque, every task runs exactly once when peers steal from the slot, a task
 * left in the slot by a spawner that then blocks is taken by a peer, and shutdownNow returns it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifoSlotPoolTest {

    private static final int CHAIN = 10_000;

    /**
     * One worker, so nothing is stolen. The first task submits Y, X and then A, which starts an
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
                pool.execute(() -> { });                       // Y
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
     * The first runnable a task submits runs next on the same worker, before the older tasks in
     * the deque; later ones follow newest first (one worker, so the order is deterministic).
     */
    @Test
    void theFirstRunnableATaskSubmitsRunsNext() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            StringBuffer order = new StringBuffer();
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(() -> order.append('a'));
                pool.execute(() -> order.append('b'));
                pool.execute(() -> {
                    order.append('c');
                    done.countDown();
                });
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(order.toString()).isEqualTo("acb");
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
}
