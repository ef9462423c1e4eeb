/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the pools' ExecutorService side, parallelFor and the builder: each
 * test failed on the code before its fix (docs/measurements/2026-11-29-s24/pool-regressions-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolRegressionTest {

    /**
     * ParallelFor computes {@code lo + grain} (and {@code hi - lo}) in int: for a range that ends
     * near Integer.MAX_VALUE the last chunk's end overflows to a negative number, {@code lo} jumps
     * back below {@code from}, and the body is called with indices outside [from, to) (an
     * endless loop if the body does not throw).
     */
    @Test
    void parallelForNearIntMaxCallsTheBodyOnlyInsideTheRange() {
        int from = Integer.MAX_VALUE - 100;
        int to = Integer.MAX_VALUE;
        AtomicIntegerArray hits = new AtomicIntegerArray(to - from);
        AtomicReference<String> outside = new AtomicReference<>();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            try {
                pool.parallelFor(from, to, i -> {
                    if (i < from || i >= to) {
                        outside.compareAndSet(null, "body called with index " + i + ", outside [" + from + ", " + to + ")");
                        throw new IllegalStateException("out of range: " + i); // stops the endless loop
                    }
                    hits.incrementAndGet(i - from);
                });
            } catch (IllegalStateException e) {
                // recorded in outside
            }
        }
        assertThat(outside.get()).as("index outside the range").isNull();
        for (int k = 0; k < to - from; k++) {
            assertThat(hits.get(k)).as("index %d", from + k).isEqualTo(1);
        }
    }

    /**
     * The builder accepts any positive keep-alive, but the pool's constructor converts it with
     * Duration.toNanos(), which throws ArithmeticException beyond about 292 years: a "never
     * retire" keep-alive (Duration.ofSeconds(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration())
     * makes build() throw an exception its Javadoc does not mention.
     */
    @Test
    void aVeryLongSpareKeepAliveIsAcceptedByBuild() {
        WorkStealingPool.Builder b = WorkStealingPool.builder().workers(1)
                .spareKeepAlive(Duration.ofSeconds(Long.MAX_VALUE)); // positive: the setter accepts it
        try (WorkStealingPool pool = b.build()) {
            assertThat(pool.parallelism()).isEqualTo(1);
        }
    }

    /**
     * invokeAll's contract: the futures it returns are all done. Called from a worker of a
     * WorkStealingPool, whose Future.get() helps instead of waiting, a shutdownNow that drains
     * some of the invoked tasks makes get() throw CancellationException although the task was not
     * cancelled (helpJoin: "pool stopped before the awaited task completed"); AbstractExecutorService
     * .invokeAll swallows a CancellationException from get() as "that one was cancelled", and
     * returns normally with futures that are not done and never will be.
     */
    @Test
    void invokeAllFromAWorkerNeverReturnsFuturesThatAreNotDone() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch outerDone = new CountDownLatch(1);
        List<Future<Integer>> result = new ArrayList<>();
        List<Throwable> thrown = new ArrayList<>();
        pool.execute(() -> {
            List<Callable<Integer>> cs = new ArrayList<>();
            cs.add(() -> {
                firstRunning.countDown();
                release.await(10, TimeUnit.SECONDS);    // shutdownNow's interrupt ends it
                return 0;
            });
            for (int i = 1; i < 20; i++) {
                int k = i;
                cs.add(() -> k);
            }
            try {
                result.addAll(pool.invokeAll(cs));
            } catch (Throwable t) {
                thrown.add(t);
            }
            outerDone.countDown();
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        List<Runnable> notStarted = pool.shutdownNow();
        release.countDown();
        assertThat(outerDone.await(10, TimeUnit.SECONDS)).as("invokeAll returned or threw").isTrue();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        if (thrown.isEmpty()) {                        // returned normally: every future must be done
            long notDone = result.stream().filter(f -> !f.isDone()).count();
            assertThat(notDone).as("futures returned by invokeAll that are not done (shutdownNow returned %d tasks)",
                    notStarted.size()).isZero();
        }
    }
}
