/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
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
 * order is the one LIFO order that {@code WorkerForkStackTest} checks): every task runs exactly
 * once when peers steal from the slot, a task left in the slot by a spawner that then blocks is
 * taken by a peer, and shutdownNow returns it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifoSlotPoolTest {

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
            Await.ignoringInterrupts(release);
        });
        assertThat(submitted.await(30, TimeUnit.SECONDS)).isTrue();
        List<Runnable> notStarted = pool.shutdownNow();
        release.countDown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(notStarted).containsExactly(child);
        assertThat(childRuns.get()).isZero();
    }

    /**
     * One worker, and this test's thread as a thief on its deque and slot (the test is in the
     * pool's package). Each link of a chain submits the next link and a no-op, which the thief
     * keeps stealing, so the worker's local queues keep changing between empty and not while it
     * fills and takes its slot. The chain must finish (the worker never parks with a task in its
     * own slot, where its re-check does not look) and every no-op run exactly once, on the
     * worker or here.
     */
    @Test
    void aChainFinishesAndEveryTaskRunsOnceWhileAThiefEmptiesTheQueues() throws Exception {
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
                    Runnable slotted = w.lifo.steal();
                    if (slotted != null) {
                        slotted.run();
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
