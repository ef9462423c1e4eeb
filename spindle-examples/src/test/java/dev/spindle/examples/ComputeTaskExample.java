/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.pool.ComputeTask;
import dev.spindle.pool.WorkStealingPool;

/** README.md, "Example": the {@code ComputeTask} snippet, as the body of a method. */
final class ComputeTaskExample {
    private ComputeTaskExample() {
    }

    static long fib30(WorkStealingPool pool) {
        final class Fib extends ComputeTask<Long> {
            private final int n;
            Fib(int n) { this.n = n; }

            @Override protected Long compute() {
                if (n < 2) return (long) n;
                Fib left = new Fib(n - 1);
                left.fork();                                  // on a worker: pushed to its deque
                return new Fib(n - 2).compute() + left.join();
            }
        }
        long f = pool.invoke(new Fib(30));
        return f;
    }
}
