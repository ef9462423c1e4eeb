/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.pool.ComputeTask;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * {@code fib(n)} with no sequential cutoff, spawning <em>both</em> recursive calls as tasks at
 * every level and joining them newest first. Nearly all the time goes into creating, queueing,
 * running and joining tiny tasks, so this measures per-task overhead; it spawns
 * {@link #spawnedTasks(int) 2 &times; (fib(n+1) - 1)} tasks (2,692,536 for n = 30).
 *
 * <p>Each side uses its subclassing API, one object per task: {@link RecursiveTask} on
 * ForkJoinPool, {@link ComputeTask} on Spindle. (With {@code pool.spawn(() -> ...)} Spindle
 * also allocates a lambda per task; that variant measured about 20% slower.)
 */
public final class Fib extends ForkJoinWorkload {

    /** The size JMH and the quick harness use. */
    public static final int FULL_N = 30;
    /** {@link #spawnedTasks(int)} for {@link #FULL_N}; a test keeps the two in step. */
    public static final int FULL_SPAWNED_TASKS = 2_692_536;

    private final int n;

    public Fib(int n) {
        if (n < 0 || n > 45) {
            throw new IllegalArgumentException("n must be in [0, 45], was " + n);
        }
        this.n = n;
    }

    @Override
    public String name() {
        return "fib";
    }

    @Override
    public String describe() {
        return "fib(" + n + "), no cutoff, both branches spawned";
    }

    public int n() {
        return n;
    }

    @Override
    public long expected() {
        return sequential(n);
    }

    /** Tasks one run spawns: two per call with {@code n >= 2}. */
    public static long spawnedTasks(int n) {
        return 2 * (sequential(n + 1) - 1);
    }

    /** fib(n) by iteration. */
    public static long sequential(int n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    @Override
    protected long runSpindle(WorkStealingPool pool) {
        return pool.invoke(new SpindleFib(n));
    }

    static final class SpindleFib extends ComputeTask<Long> {
        private final int n;

        SpindleFib(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n < 2) {
                return (long) n;
            }
            SpindleFib a = new SpindleFib(n - 1);
            SpindleFib b = new SpindleFib(n - 2);
            a.fork();
            b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }

    @Override
    protected long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new FibTask(n));
    }

    static final class FibTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final int n;

        FibTask(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n < 2) {
                return (long) n;
            }
            FibTask a = new FibTask(n - 1);
            FibTask b = new FibTask(n - 2);
            a.fork();
            b.fork();
            long rb = b.join();
            return a.join() + rb;
        }
    }
}
