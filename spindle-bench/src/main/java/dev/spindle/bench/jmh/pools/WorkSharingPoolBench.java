/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh.pools;

import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link WorkSharingPool} against a fixed {@link ThreadPoolExecutor} over a
 * {@link LinkedBlockingQueue} ({@code tpe}) and Spindle's {@link WorkStealingPool}
 * ({@code stealing}). Scores are time per task.
 *
 * <ul>
 *   <li>{@code externalBatch}: the benchmark thread submits {@value #BATCH} empty tasks from
 *       outside and waits until all have run.</li>
 *   <li>{@code messageChain}: {@value #CHAINS} chains of {@value #HOPS} hops each, where every
 *       hop is a task that submits the next one from its worker, as an actor passing a message
 *       on does. The chain object resubmits itself, so no hop allocates.</li>
 * </ul>
 * Every invocation checks that every task ran.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class WorkSharingPoolBench {

    static final int BATCH = 20_000;
    static final int CHAINS = 4;
    static final int HOPS = 5_000;

    @Param({"sharing", "tpe", "stealing"})
    public String pool;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private ExecutorService executor;
    private volatile CountDownLatch done;
    private final Runnable task = () -> done.countDown();

    @Setup(Level.Trial)
    public void setUp() {
        int n = workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
        executor = switch (pool) {
            case "sharing" -> WorkSharingPool.builder().workers(n).name("bench-sharing").build();
            case "stealing" -> WorkStealingPool.builder().workers(n).name("bench-stealing").build();
            case "tpe" -> {
                ThreadPoolExecutor tpe = new ThreadPoolExecutor(n, n, 0, TimeUnit.MILLISECONDS,
                        new LinkedBlockingQueue<>());
                tpe.prestartAllCoreThreads();
                yield tpe;
            }
            default -> throw new IllegalArgumentException("pool " + pool);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException(pool + " did not terminate");
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void externalBatch() throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(BATCH);
        done = latch;
        for (int i = 0; i < BATCH; i++) {
            executor.execute(task);
        }
        await(latch);
    }

    /** One hop per run; resubmits itself from the worker until its hops are spent. */
    static final class Chain implements Runnable {
        final ExecutorService executor;
        final CountDownLatch finished;
        final AtomicInteger hopsRun;
        int left = HOPS;

        Chain(ExecutorService executor, CountDownLatch finished, AtomicInteger hopsRun) {
            this.executor = executor;
            this.finished = finished;
            this.hopsRun = hopsRun;
        }

        @Override
        public void run() {
            if (--left > 0) {
                executor.execute(this);
            } else {
                hopsRun.addAndGet(HOPS);
                finished.countDown();
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(CHAINS * HOPS)
    public int messageChain() throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(CHAINS);
        AtomicInteger hops = new AtomicInteger();
        for (int c = 0; c < CHAINS; c++) {
            executor.execute(new Chain(executor, latch, hops));
        }
        await(latch);
        if (hops.get() != CHAINS * HOPS) {
            throw new IllegalStateException(pool + ": " + hops.get() + " hops ran");
        }
        return hops.get();
    }

    private void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(pool + ": " + latch.getCount() + " did not finish");
        }
    }
}
