/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;

public class Fib {
    static long fib(WorkStealingPool pool, int n) {
        if (n < 2) return n;
        Task<Long> left = pool.spawn(() -> fib(pool, n - 1)); // pushed to this worker's deque
        long right = fib(pool, n - 2);
        return left.join() + right;                            // helps instead of blocking
    }

    public static void main(String[] args) {
        try (WorkStealingPool pool = WorkStealingPool.builder().name("fib").build()) {
            System.out.println(pool.invoke(() -> fib(pool, 30)));   // 832040
            pool.parallelFor(0, 1_000, i -> { /* data-parallel body */ });
            System.out.println(pool.stats());
        }
    }
}
