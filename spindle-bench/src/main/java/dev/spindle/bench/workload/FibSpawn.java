/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;

/**
 * {@link Fib} written the way most Spindle code is: {@code pool.spawn(() -> ...)} and
 * {@link Task#join()}, a lambda and a task per call, where {@link Fib} subclasses
 * {@code ComputeTask}. ForkJoinPool runs the same {@code RecursiveTask} as in {@link Fib}, its
 * cheapest form, so the ratio says what the convenient API costs against FJP's best.
 */
public final class FibSpawn extends ForkJoinWorkload {

    private final int n;

    public FibSpawn(int n) {
        if (n < 0 || n > 45) {
            throw new IllegalArgumentException("n must be in [0, 45], was " + n);
        }
        this.n = n;
    }

    @Override
    public String name() {
        return "fib-spawn";
    }

    @Override
    public String describe() {
        return "fib(" + n + ") with pool.spawn(lambda) and join, both branches spawned";
    }

    @Override
    public long expected() {
        return Fib.sequential(n);
    }

    @Override
    protected long runSpindle(WorkStealingPool pool) {
        return pool.invoke(() -> fib(pool, n));
    }

    static long fib(WorkStealingPool pool, int n) {
        if (n < 2) {
            return n;
        }
        Task<Long> a = pool.spawn(() -> fib(pool, n - 1));
        Task<Long> b = pool.spawn(() -> fib(pool, n - 2));
        long rb = b.join();
        return a.join() + rb;
    }

    @Override
    protected long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new Fib.FibTask(n));
    }
}
