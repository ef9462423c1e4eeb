/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A second look at the deque after the owner's view of {@code top} ({@code topSeen}) came to be
 * set by the pops that find the deque empty, one of them from an opaque read: the owner empties
 * the deque often (so those branches run), the ring is tiny (so every index wraps onto slots
 * thieves have just read), and thieves steal one or a batch. Every element must be taken exactly
 * once, and {@link WorkStealingDeque#stolenCount()} must equal the thieves' takes.
 */
class QueueApiSecondReviewRegressionTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void popsThatFindTheDequeEmptyAgainstThievesLoseAndDuplicateNothing() throws InterruptedException {
        for (int rep = 0; rep < 6; rep++) {
            round(2, 60_000, rep % 3 == 0 ? 4 : rep % 3 == 1 ? 8 : 128, 1_000L + rep);
        }
    }

    private static void round(int thieves, int n, int maxCapacity, long seed) throws InterruptedException {
        WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2, maxCapacity);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicLong thiefTakes = new AtomicLong();
        StressThreads ctl = new StressThreads(45, TimeUnit.SECONDS);
        CountDownLatch gate = new CountDownLatch(1 + thieves);
        ctl.start("owner", c -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            Object[] buf = new Object[maxCapacity];
            gate.countDown();
            gate.await();
            int next = 0;
            while (next < n && !c.expired()) {
                int burst = 1 + rnd.nextInt(3);
                for (int k = 0; k < burst && next < n; k++) {
                    if (deque.offer(next)) {
                        next++;
                    } else {
                        int moved = deque.takeOldest(buf, Math.max(1, deque.size() / 2));
                        for (int m = 0; m < moved; m++) {
                            taken.incrementAndGet((Integer) buf[m]);
                            buf[m] = null;
                        }
                    }
                }
                if (rnd.nextInt(8) == 0) {
                    int moved = deque.takeOldest(buf, 1 + rnd.nextInt(maxCapacity));
                    for (int m = 0; m < moved; m++) {
                        taken.incrementAndGet((Integer) buf[m]);
                        buf[m] = null;
                    }
                }
                // pop until the deque looks empty, often after thieves took the rest: the pops
                // that set the owner's view from an empty deque
                int pops = rnd.nextInt(4);
                for (int k = 0; k < pops; k++) {
                    Integer x = deque.pop();
                    if (x == null) {
                        break;
                    }
                    taken.incrementAndGet(x);
                }
                if (rnd.nextInt(4) == 0) {
                    Thread.onSpinWait();       // let the thieves empty it now and then
                }
            }
            for (Integer x; (x = deque.pop()) != null; ) {
                taken.incrementAndGet(x);
            }
            finished.set(true);
        });
        for (int t = 0; t < thieves; t++) {
            long thiefSeed = seed * 31 + t;
            ctl.start("thief-" + t, c -> {
                SplittableRandom rnd = new SplittableRandom(thiefSeed);
                WorkStealingDeque<Integer> own = new WorkStealingDeque<>(2, 16);
                gate.countDown();
                gate.await();
                while (!c.expired()) {
                    boolean done = finished.get();
                    Integer first;
                    if (rnd.nextBoolean()) {
                        StealResult<Integer> r = deque.steal();
                        first = r.isSuccess() ? r.value() : null;
                        if (r.isSuccess() && first == null) {
                            throw new AssertionError("a successful steal returned null");
                        }
                    } else {
                        first = deque.stealBatchOrNull(own, 1 + rnd.nextInt(8));
                    }
                    QueueApiRegressionTest.tally(first, own, taken, thiefTakes);
                    if (first == null && done && deque.isEmpty()) {
                        break;
                    }
                }
            });
        }
        ctl.joinAll();
        for (int i = 0; i < n; i++) {
            assertThat(taken.get(i)).as("times element %d was taken (capacity %d, seed %d)", i, maxCapacity, seed)
                    .isEqualTo(1);
        }
        assertThat(deque.stolenCount()).as("stolenCount: the thieves' takes only").isEqualTo(thiefTakes.get());
        assertThat(deque.size()).isZero();
    }

    /**
     * {@link WorkStealingDeque#bottomIndex()} tells a batch thief how many elements its steal
     * moved into its own deque, which the deque's size after the steal does not once another
     * thief has taken some of them (the pool counts a worker's steals this way).
     */
    @Test
    void bottomIndexCountsWhatABatchMovedEvenAfterAThirdThreadStoleSomeOfIt() {
        WorkStealingDeque<Integer> victim = new WorkStealingDeque<>(2, 64);
        WorkStealingDeque<Integer> thief = new WorkStealingDeque<>(2, 64);
        for (int i = 0; i < 10; i++) {
            victim.push(i);
        }
        long before = thief.bottomIndex();
        assertThat(victim.stealBatchOrNull(thief, 8)).isEqualTo(0);
        assertThat(thief.steal().value()).as("a third thread steals from the batch").isEqualTo(1);
        assertThat(thief.bottomIndex() - before).as("moved into the thief's deque").isEqualTo(4);
        assertThat(thief.size()).isEqualTo(3);
        assertThat(victim.stolenCount()).isEqualTo(5);
        assertThat(thief.stolenCount()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ the pool's steal counts

    /**
     * {@link SchedulerStats}: once the scheduler is quiet the counters are exact; a worker's
     * {@code steals} are the tasks it took from other workers' deques and {@code stolenFrom} the
     * tasks others took from its deque, so their totals over the workers are equal. Here with
     * fork/join and runnables executed from tasks: deques small enough that the overflow's
     * {@code takeOldest} runs all the time, and deques long enough for batch steals of up to
     * {@link WorkStealingDeque#DEFAULT_STEAL_BATCH}, from whose destination a third worker may
     * steal while the batch is still moving.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void stealsAndStolenFromAddUpOnceThePoolIsQuietWithOverflowAndBatches() throws Exception {
        for (int rep = 0; rep < 40; rep++) {
            boolean small = rep % 3 == 0;
            int perCall = small ? 6 : 40;
            LongAdder ran = new LongAdder();
            WorkStealingPool pool = WorkStealingPool.builder().workers(small ? 4 : 8)
                    .localQueueCapacity(small ? 4 : 64).build();
            long sum = pool.invoke(() -> spread(pool, 11, perCall, ran));
            assertThat(sum).isEqualTo(fibSeq(11));
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            SchedulerStats s = pool.stats();
            long stolenFrom = s.workers().stream().mapToLong(SchedulerStats.WorkerStats::stolenFrom).sum();
            long overflowed = s.workers().stream().mapToLong(SchedulerStats.WorkerStats::overflowed).sum();
            assertThat(ran.sum()).as("runnables run").isEqualTo(perCall * calls(11));
            assertThat(stolenFrom).as("rep %d: tasks stolen from equals tasks stolen by (overflowed %d): %s",
                    rep, overflowed, s).isEqualTo(s.steals());
        }
    }

    /** fib by fork/join, each call also executing a burst of runnables into its worker's deque. */
    private static long spread(WorkStealingPool pool, int n, int perCall, LongAdder ran) {
        for (int k = 0; k < perCall; k++) {
            pool.execute(() -> {
                for (int spin = 0; spin < 50; spin++) {
                    Thread.onSpinWait();
                }
                ran.increment();
            });
        }
        if (n < 2) {
            return n;
        }
        Task<Long> left = pool.spawn(() -> spread(pool, n - 1, perCall, ran));
        long right = spread(pool, n - 2, perCall, ran);
        return left.join() + right;
    }

    private static long fibSeq(int n) {
        return n < 2 ? n : fibSeq(n - 1) + fibSeq(n - 2);
    }

    /** How many times {@link #spread} runs for {@code n}. */
    private static long calls(int n) {
        return n < 2 ? 1 : 1 + calls(n - 1) + calls(n - 2);
    }
}
