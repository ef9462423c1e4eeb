/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.runtime;

import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;

/**
 * A thread pool that workloads run on, seen through the few operations they need.
 *
 * <p>Message-passing workloads use only {@link #execute(Runnable)}: called from a task already
 * running on the pool it submits wherever that runtime puts local submissions (a Spindle worker's
 * own deque, a {@code ForkJoinPool} worker's own queue, the shared queue of a
 * {@code ThreadPoolExecutor}); called from any other thread it is an external submission.
 *
 * <p>Fork/join workloads need the real pool, since each is written in the idiom of its runtime
 * ({@code spawn}/{@code join} on Spindle, {@code RecursiveTask.fork}/{@code join} on
 * {@code ForkJoinPool}); they get it from {@link #spindle()} or {@link #forkJoinPool()}.
 *
 * <p>Create runtimes with {@link Runtimes#create}; close them when done.
 */
public interface BenchRuntime extends AutoCloseable {

    /** Which runtime this is. */
    RuntimeKind kind();

    /** The number of worker threads. */
    int workers();

    /** Runs {@code task} once on a thread of this runtime. */
    void execute(Runnable task);

    /**
     * Whether {@code thread} is one of this runtime's worker threads. Used to measure the CPU
     * time the pool's own threads consume.
     */
    boolean ownsThread(Thread thread);

    /**
     * Starts every worker thread this runtime will use, so that a following measurement does
     * not see threads being created. Returns once each has run a task.
     */
    void prestart();

    /** The Spindle pool. @throws UnsupportedOperationException for other runtimes */
    default WorkStealingPool spindle() {
        throw new UnsupportedOperationException(kind() + " is not a Spindle pool");
    }

    /** The ForkJoinPool. @throws UnsupportedOperationException for other runtimes */
    default ForkJoinPool forkJoinPool() {
        throw new UnsupportedOperationException(kind() + " is not a ForkJoinPool");
    }

    /** Shuts the pool down and waits for its threads to finish their tasks. */
    @Override
    void close();
}
