/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.SchedulerStats;
import dev.spindle.Task;
import dev.spindle.queue.StealResult;
import dev.spindle.queue.WorkStealingDeque;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sizes and values a long-running service reaches: millions of queued tasks, fork/join chains
 * thousands deep, deque indices past the int range, the longest and most negative times, the
 * builders' bounds. All of these held on review; the tests keep them covered.
 */
@Timeout(60)
class ScaleEdgeRegressionTest {

    static final class Chain extends ComputeTask<Integer> {
        final int n;
        Chain(int n) { this.n = n; }
        @Override protected Integer compute() {
            if (n == 0) return 0;
            Chain c = new Chain(n - 1);
            c.fork();
            return c.join() + 1;
        }
    }

    static final class FjChain extends RecursiveTask<Integer> {
        final int n;
        FjChain(int n) { this.n = n; }
        @Override protected Integer compute() {
            if (n == 0) return 0;
            FjChain c = new FjChain(n - 1);
            c.fork();
            return c.join() + 1;
        }
    }

    /** A join depth the JDK's ForkJoinPool copies with (on the same stack) completes here too. */
    @Test
    void aForkJoinChainThousandsDeep() throws Exception {
        int depth = 3000;
        ForkJoinPool fj = new ForkJoinPool(2);
        try {
            assertThat(fj.invoke(new FjChain(depth))).isEqualTo(depth);
        } finally {
            fj.shutdownNow();
        }
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            assertThat(pool.invoke(new Chain(depth))).isEqualTo(depth);
        }
    }

    /** A worker's deque overflows into the injector: every one of millions of spawns runs. */
    @Test
    void millionsSpawnedFromOneTaskRunExactlyOnce() throws Exception {
        int n = 2_000_000;
        LongAdder ran = new LongAdder();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                for (int i = 0; i < n; i++) {
                    pool.spawn(() -> { ran.increment(); return null; });
                }
                done.countDown();
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(ran.sum()).isEqualTo(n);
    }

    @Test
    void millionsSubmittedFromOutsideRunExactlyOnce() throws Exception {
        int n = 2_000_000;
        LongAdder ran = new LongAdder();
        Runnable r = ran::increment;
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            for (int i = 0; i < n; i++) {
                pool.execute(r);
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(ran.sum()).isEqualTo(n);
    }

    /** A deque of the largest allowed capacity grows to hold millions, and the stats stay sane. */
    @Test
    void millionsInTheLargestLocalQueueRunExactlyOnce() throws Exception {
        int n = 2_000_000;
        LongAdder ran = new LongAdder();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).localQueueCapacity(1 << 24).build()) {
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                for (int i = 0; i < n; i++) {
                    pool.execute(ran::increment);
                }
                done.countDown();
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            SchedulerStats stats = pool.stats();
            assertThat(stats.completed()).isGreaterThanOrEqualTo(n);
            assertThat(stats.steals()).isNotNegative();
            assertThat(stats.queued()).isZero();
        }
        assertThat(ran.sum()).isEqualTo(n);
    }

    private static void setLong(Object o, String cls, String field, long v) throws ReflectiveOperationException {
        Field f = Class.forName("dev.spindle.queue." + cls).getDeclaredField(field);
        f.setAccessible(true);
        f.setLong(o, v);
    }

    /**
     * The deque's indices are longs cast to int for the ring slot: pushing, growing, stealing
     * and popping across 2^31 and 2^32 keeps every element exactly once, oldest stolen first.
     */
    @Test
    void aDequeWorksAcrossTheIntBoundariesOfItsIndices() throws Exception {
        for (long start : new long[] {Integer.MAX_VALUE - 100L, (1L << 32) - 100}) {
            WorkStealingDeque<Integer> d = new WorkStealingDeque<>();
            for (String f : new String[] {"top"}) {
                setLong(d, "DequeTop", f, start);
            }
            for (String f : new String[] {"bottom", "topSeen", "clearedBelow"}) {
                setLong(d, "DequeBottom", f, start);
            }
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < 300; i++) {     // grows 64 -> 512 across the boundary
                d.push(i);
                if (i % 3 == 0) {
                    StealResult<Integer> r = d.steal();
                    assertThat(r.isSuccess()).isTrue();
                    out.add(r.value());
                }
            }
            for (Integer x; (x = d.pop()) != null; ) {
                out.add(x);
            }
            assertThat(out).hasSize(300).doesNotHaveDuplicates();
            assertThat(out.subList(0, 100)).isSorted();
            assertThat(d.size()).isZero();
        }
    }

    /** Long.MAX_VALUE timeouts (deadlines that overflow nanoTime) wait, and do not time out. */
    @Test
    void theLongestTimeoutsAndKeepAliveWork() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).spareKeepAlive(Duration.ofSeconds(Long.MAX_VALUE)).build()) {
            Task<Integer> t = pool.spawn(() -> 1);
            assertThat(t.get(Long.MAX_VALUE, TimeUnit.DAYS)).isEqualTo(1);
            assertThat(pool.spawn(() -> 2).get(Long.MAX_VALUE, TimeUnit.NANOSECONDS)).isEqualTo(2);
            java.util.concurrent.Callable<Integer> three = () -> 3;
            assertThat(pool.invokeAll(List.of(three), Long.MAX_VALUE, TimeUnit.DAYS)).hasSize(1);
            Integer any = pool.invokeAny(List.of(three), Long.MAX_VALUE, TimeUnit.DAYS);
            assertThat(any).isEqualTo(3);
            CountDownLatch l = new CountDownLatch(1);
            Task<Integer> slow = pool.spawn(() -> { l.await(); return 4; });
            java.util.concurrent.Callable<Integer> five = () -> pool.spawn(() -> 5).get(Long.MAX_VALUE, TimeUnit.DAYS);
            Integer got = pool.submit(five).get(10, TimeUnit.SECONDS);
            assertThat(got).isEqualTo(5);
            l.countDown();
            assertThat(slow.get(Long.MAX_VALUE, TimeUnit.NANOSECONDS)).isEqualTo(4);
            pool.shutdown();
            assertThat(pool.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS)).isTrue();
        }
    }

    /**
     * A searching worker makes all its steal attempts before it looks at the injector or the
     * shutdown again: stealAttempts(Integer.MAX_VALUE) was accepted, and a pool of two idle
     * workers then took about 45 s to terminate after shutdown (awaitTermination(15 s) said no).
     */
    @Test
    void stealAttemptsThatWouldKeepAWorkerFromTheShutdownAreRefused() {
        assertThatThrownBy(() -> WorkStealingPool.builder().stealAttempts(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stealAttempts");
        assertThatThrownBy(() -> WorkStealingPool.builder().stealAttempts((1 << 16) + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stealAttempts");
    }

    /** Out-of-range builder values are refused naming the parameter; the extremes allowed work. */
    @Test
    void builderExtremesAreRefusedOrWork() throws Exception {
        assertThatThrownBy(() -> WorkStealingPool.builder().workers(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> WorkStealingPool.builder().workers(Integer.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> WorkStealingPool.builder().localQueueCapacity(Integer.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("localQueueCapacity");
        assertThatThrownBy(() -> WorkStealingPool.builder().stealAttempts(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stealAttempts");
        assertThatThrownBy(() -> WorkStealingPool.builder().maxSpareWorkers(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSpareWorkers");
        assertThatThrownBy(() -> WorkStealingPool.builder().spareKeepAlive(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spareKeepAlive");
        AtomicInteger n = new AtomicInteger();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).stealAttempts(1 << 16)
                .maxSpareWorkers(0).localQueueCapacity(2).build()) {
            for (int i = 0; i < 1000; i++) {
                pool.execute(n::incrementAndGet);
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(15, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(n.get()).isEqualTo(1000);
    }
}
