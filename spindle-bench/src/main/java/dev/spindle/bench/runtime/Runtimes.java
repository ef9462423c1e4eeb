/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.runtime;

import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Creates the {@link BenchRuntime}s. */
public final class Runtimes {

    private static final AtomicInteger SEQ = new AtomicInteger();

    private Runtimes() {
    }

    /**
     * Creates a runtime of {@code kind} with {@code workers} threads. Every runtime's threads
     * are daemon threads with a name unique to it.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public static BenchRuntime create(RuntimeKind kind, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        String name = "bench-" + kind.id() + "-" + SEQ.incrementAndGet();
        switch (kind) {
            case SPINDLE:
                return new SpindleRuntime(name, workers);
            case FJP:
                return new ForkJoinRuntime(kind, name, workers, false);
            case FJP_ASYNC:
                return new ForkJoinRuntime(kind, name, workers, true);
            case TPE:
                return new ThreadPoolRuntime(name, workers);
            default:
                throw new AssertionError(kind);
        }
    }

    /**
     * Runs one task per worker, each waiting at a barrier until all have arrived: returns once
     * every worker has run a task at the same time.
     *
     * @throws IllegalStateException if they did not all arrive within 10 s
     */
    static void prestartWithBarrier(BenchRuntime rt) {
        int n = rt.workers();
        CyclicBarrier barrier = new CyclicBarrier(n);
        CountDownLatch done = new CountDownLatch(n);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < n; i++) {
            rt.execute(() -> {
                try {
                    barrier.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            });
        }
        awaitLatch(done, rt);
        if (failure.get() != null) {
            throw new IllegalStateException("workers of " + rt.kind() + " did not all start", failure.get());
        }
    }

    /**
     * Keeps a ForkJoinPool busy with short tasks until it has created all its workers. It
     * creates them lazily, when work is signalled; tasks that block without telling it (as a
     * barrier would) can leave it short of workers for a long time.
     *
     * @throws IllegalStateException if it has not within 10 s
     */
    static void prestartForkJoin(BenchRuntime rt, ForkJoinPool pool) {
        int n = rt.workers();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.getPoolSize() < n) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(rt.kind() + " started " + pool.getPoolSize() + " of " + n + " workers");
            }
            CountDownLatch done = new CountDownLatch(2 * n);
            for (int i = 0; i < 2 * n; i++) {
                rt.execute(() -> {
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    done.countDown();
                });
            }
            awaitLatch(done, rt);
        }
    }

    private static void awaitLatch(CountDownLatch done, BenchRuntime rt) {
        try {
            if (!done.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("workers of " + rt.kind() + " did not start");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void awaitTermination(java.util.concurrent.ExecutorService pool, String what) {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                throw new IllegalStateException(what + " did not terminate within 30 s");
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * What the runtimes share: their kind, and their threads' names, {@code <name>-worker-<i>},
     * by which {@link #ownsThread} knows them. {@code execute} stays in each runtime on purpose:
     * the workloads call it once per task, and one shared body would make its call into the pool
     * see all three pool classes in a run that compares them (a megamorphic call for all),
     * where each runtime's own sees only its pool's.
     */
    abstract static class NamedRuntime implements BenchRuntime {
        private final RuntimeKind kind;
        final String prefix;

        NamedRuntime(RuntimeKind kind, String name) {
            this.kind = kind;
            this.prefix = name + "-worker-";
        }

        @Override
        public final RuntimeKind kind() {
            return kind;
        }

        @Override
        public final boolean ownsThread(Thread thread) {
            return thread.getName().startsWith(prefix);
        }
    }

    // ------------------------------------------------------------------ Spindle

    static final class SpindleRuntime extends NamedRuntime {
        private final WorkStealingPool pool;

        SpindleRuntime(String name, int workers) {
            super(RuntimeKind.SPINDLE, name);
            this.pool = WorkStealingPool.builder().name(name).workers(workers).build();
        }

        @Override
        public int workers() {
            return pool.parallelism();
        }

        @Override
        public void execute(Runnable task) {
            pool.execute(task);
        }

        @Override
        public void prestart() {
            prestartWithBarrier(this);         // the threads exist from build(); see that they run
        }

        @Override
        public WorkStealingPool spindle() {
            return pool;
        }

        @Override
        public void close() {
            awaitTermination(pool, pool.name());
        }

        @Override
        public String toString() {
            return pool.toString();
        }
    }

    // ------------------------------------------------------------------ ForkJoinPool

    static final class ForkJoinRuntime extends NamedRuntime {
        private final ForkJoinPool pool;

        ForkJoinRuntime(RuntimeKind kind, String name, int workers, boolean asyncMode) {
            super(kind, name);
            AtomicInteger index = new AtomicInteger();
            ForkJoinPool.ForkJoinWorkerThreadFactory factory = p -> {
                ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
                t.setName(prefix + index.getAndIncrement());
                return t;
            };
            this.pool = new ForkJoinPool(workers, factory, null, asyncMode);
        }

        @Override
        public int workers() {
            return pool.getParallelism();
        }

        @Override
        public void execute(Runnable task) {
            pool.execute(task);
        }

        @Override
        public void prestart() {
            prestartForkJoin(this, pool);
        }

        @Override
        public ForkJoinPool forkJoinPool() {
            return pool;
        }

        @Override
        public void close() {
            awaitTermination(pool, prefix);
        }

        @Override
        public String toString() {
            return kind() + ":" + pool;
        }
    }

    // ------------------------------------------------------------------ ThreadPoolExecutor

    static final class ThreadPoolRuntime extends NamedRuntime {
        private final ThreadPoolExecutor pool;

        ThreadPoolRuntime(String name, int workers) {
            super(RuntimeKind.TPE, name);
            AtomicInteger index = new AtomicInteger();
            this.pool = new ThreadPoolExecutor(workers, workers, 60, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, prefix + index.getAndIncrement());
                        t.setDaemon(true);
                        return t;
                    });
        }

        @Override
        public int workers() {
            return pool.getMaximumPoolSize();
        }

        @Override
        public void execute(Runnable task) {
            pool.execute(task);
        }

        @Override
        public void prestart() {
            pool.prestartAllCoreThreads();
            prestartWithBarrier(this);
        }

        @Override
        public void close() {
            awaitTermination(pool, prefix);
        }

        @Override
        public String toString() {
            return "tpe:" + pool;
        }
    }
}
