/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * {@code fib(n)} by the classic fork/join recursion (spawn {@code fib(n-1)}, compute
 * {@code fib(n-2)} in place, join) down to a sequential cutoff, below which plain recursion
 * does the work. Tasks are coarse, so this measures how well the pool keeps all workers busy:
 * compare with {@link #sequential} for the parallel efficiency
 * {@code T_seq / (workers * T_par)}.
 */
public final class FibCutoff extends ForkJoinWorkload {

    public static final int FULL_N = 40;
    public static final int FULL_CUTOFF = 27;

    private final int n;
    private final int cutoff;

    public FibCutoff(int n, int cutoff) {
        if (n < 0 || n > 50) {
            throw new IllegalArgumentException("n must be in [0, 50], was " + n);
        }
        if (cutoff < 1) {
            throw new IllegalArgumentException("cutoff must be at least 1, was " + cutoff);
        }
        this.n = n;
        this.cutoff = cutoff;
    }

    @Override
    public String name() {
        return "fib-cutoff";
    }

    @Override
    public String describe() {
        return "fib(" + n + "), sequential below " + cutoff;
    }

    public int n() {
        return n;
    }

    @Override
    public long expected() {
        return Fib.sequential(n);
    }

    /** Recursive fib on the calling thread: the baseline {@code T_seq}. Checked. */
    public long runSequential() {
        return Checks.expect(describe() + " sequentially", expected(), seq(n));
    }

    /** Plain doubly-recursive fib (the same code the tasks run below the cutoff). */
    public static long seq(int n) {
        return n < 2 ? n : seq(n - 1) + seq(n - 2);
    }

    @Override
    protected long runSpindle(WorkStealingPool pool) {
        return pool.invoke(() -> fib(pool, n, cutoff));
    }

    static long fib(WorkStealingPool pool, int n, int cutoff) {
        if (n <= cutoff) {
            return seq(n);
        }
        Task<Long> a = pool.spawn(() -> fib(pool, n - 1, cutoff));
        long b = fib(pool, n - 2, cutoff);
        return a.join() + b;
    }

    @Override
    protected long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new FibTask(n, cutoff));
    }

    static final class FibTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final int n;
        private final int cutoff;

        FibTask(int n, int cutoff) {
            this.n = n;
            this.cutoff = cutoff;
        }

        @Override
        protected Long compute() {
            return fib(n, cutoff);
        }

        static long fib(int n, int cutoff) {
            if (n <= cutoff) {
                return seq(n);
            }
            FibTask a = new FibTask(n - 1, cutoff);
            a.fork();
            long b = fib(n - 2, cutoff);
            return a.join() + b;
        }
    }
}
