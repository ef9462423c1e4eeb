/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh.pools;

import dev.spindle.Hints;
import dev.spindle.pool.PriorityPool;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * {@link PriorityPool} against the usual alternative, a {@link ThreadPoolExecutor} over a
 * {@link PriorityBlockingQueue} whose entries carry a sequence number so that equal priorities
 * stay FIFO ({@code tpe-pbq}). {@code producers} external threads submit a batch of
 * {@value #BATCH} empty tasks with priorities drawn from a few levels; an operation is one task,
 * measured from the start of the batch until its last task has run. Every invocation checks
 * that every task ran.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class PriorityPoolBench {

    static final int BATCH = 40_000;

    @Param({"priority", "tpe-pbq"})
    public String pool;

    /** Threads submitting concurrently. */
    @Param({"1", "4"})
    public int producers;

    /** Distinct priorities used. */
    @Param("4")
    public int levels;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private PriorityPool priorityPool;
    private ThreadPoolExecutor tpe;
    private final AtomicLong seq = new AtomicLong();
    private Hints[] hints;
    private int[][] priorities;                // per producer, per task: a level index

    private Thread[] producerThreads;
    private CyclicBarrier start;
    private volatile boolean stopping;
    private volatile CountDownLatch done;
    private final Runnable task = () -> done.countDown();

    /** A PriorityBlockingQueue entry: priority first, then submission order. */
    static final class Prioritized implements Runnable, Comparable<Prioritized> {
        final Runnable task;
        final int priority;
        final long seq;

        Prioritized(Runnable task, int priority, long seq) {
            this.task = task;
            this.priority = priority;
            this.seq = seq;
        }

        @Override
        public void run() {
            task.run();
        }

        @Override
        public int compareTo(Prioritized o) {
            int c = Integer.compare(priority, o.priority);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        int n = workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
        if ("priority".equals(pool)) {
            priorityPool = PriorityPool.builder().workers(n).name("bench-priority").build();
        } else if ("tpe-pbq".equals(pool)) {
            tpe = new ThreadPoolExecutor(n, n, 0, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>());
            tpe.prestartAllCoreThreads();
        } else {
            throw new IllegalArgumentException("pool " + pool);
        }
        hints = new Hints[levels];
        for (int i = 0; i < levels; i++) {
            hints[i] = Hints.ofPriority(i - levels / 2);
        }
        SplittableRandom rnd = new SplittableRandom(42);
        priorities = new int[producers][BATCH / producers];
        for (int[] ps : priorities) {
            for (int i = 0; i < ps.length; i++) {
                ps[i] = rnd.nextInt(levels);
            }
        }
        start = new CyclicBarrier(producers + 1);
        producerThreads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int[] ps = priorities[p];
            producerThreads[p] = new Thread(() -> produce(ps), "producer-" + p);
            producerThreads[p].setDaemon(true);
            producerThreads[p].start();
        }
    }

    private void produce(int[] ps) {
        try {
            for (;;) {
                start.await();
                if (stopping) {
                    return;
                }
                if (priorityPool != null) {
                    for (int level : ps) {
                        priorityPool.execute(task, hints[level]);
                    }
                } else {
                    for (int level : ps) {
                        tpe.execute(new Prioritized(task, hints[level].priority(), seq.getAndIncrement()));
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        stopping = true;
        start.await();
        for (Thread t : producerThreads) {
            t.join();
        }
        if (priorityPool != null) {
            priorityPool.close();
        } else {
            tpe.shutdown();
            tpe.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void batch() throws Exception {
        CountDownLatch latch = new CountDownLatch(producers * (BATCH / producers));
        done = latch;
        start.await();
        if (!latch.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(pool + ": " + latch.getCount() + " tasks did not run");
        }
    }
}
