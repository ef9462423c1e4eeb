/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * Counts the placements of {@code n} non-attacking queens on an {@code n x n} board, row by
 * row with bit masks. In the top {@code forkDepth} rows every free column becomes a task (all
 * forked, then joined newest first); deeper rows are searched sequentially. Subtrees differ a
 * lot in size, so the pool has to balance them.
 */
public final class NQueens extends ForkJoinWorkload {

    public static final int FULL_N = 12;
    public static final int FULL_FORK_DEPTH = 3;

    /** Solutions for n = 0..16 (OEIS A000170). */
    private static final long[] SOLUTIONS = {
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200, 73_712, 365_596, 2_279_184, 14_772_512,
    };

    private final int n;
    private final int forkDepth;

    public NQueens(int n, int forkDepth) {
        if (n < 1 || n >= SOLUTIONS.length) {
            throw new IllegalArgumentException("n must be in [1, " + (SOLUTIONS.length - 1) + "], was " + n);
        }
        if (forkDepth < 0) {
            throw new IllegalArgumentException("forkDepth must not be negative, was " + forkDepth);
        }
        this.n = n;
        this.forkDepth = forkDepth;
    }

    @Override
    public String name() {
        return "nqueens";
    }

    @Override
    public String describe() {
        return "nqueens(" + n + "), a task per column in the top " + forkDepth + " rows";
    }

    @Override
    public long expected() {
        return SOLUTIONS[n];
    }

    /** Counts the completions of a partial placement on the calling thread. */
    static long sequential(int all, int cols, int left, int right) {
        if (cols == all) {
            return 1;
        }
        long count = 0;
        int free = ~(cols | left | right) & all;
        while (free != 0) {
            int bit = free & -free;
            free -= bit;
            count += sequential(all, cols | bit, (left | bit) << 1, (right | bit) >>> 1);
        }
        return count;
    }

    /** The whole board sequentially, for tests. */
    public long runSequential() {
        return Checks.expect(describe() + " sequentially", expected(), sequential((1 << n) - 1, 0, 0, 0));
    }

    @Override
    protected long runSpindle(WorkStealingPool pool) {
        int all = (1 << n) - 1;
        return pool.invoke(() -> solve(pool, all, forkDepth, 0, 0, 0, 0));
    }

    static long solve(WorkStealingPool pool, int all, int forkDepth, int row, int cols, int left, int right) {
        if (row >= forkDepth || cols == all) {
            return sequential(all, cols, left, right);
        }
        int free = ~(cols | left | right) & all;
        @SuppressWarnings("unchecked")
        Task<Long>[] parts = new Task[Integer.bitCount(free)];
        int k = 0;
        while (free != 0) {
            int bit = free & -free;
            free -= bit;
            int c = cols | bit;
            int l = (left | bit) << 1;
            int r = (right | bit) >>> 1;
            parts[k++] = pool.spawn(() -> solve(pool, all, forkDepth, row + 1, c, l, r));
        }
        long count = 0;
        for (int i = k - 1; i >= 0; i--) {
            count += parts[i].join();
        }
        return count;
    }

    @Override
    protected long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new QueensTask((1 << n) - 1, forkDepth, 0, 0, 0, 0));
    }

    static final class QueensTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final int all;
        private final int forkDepth;
        private final int row;
        private final int cols;
        private final int left;
        private final int right;

        QueensTask(int all, int forkDepth, int row, int cols, int left, int right) {
            this.all = all;
            this.forkDepth = forkDepth;
            this.row = row;
            this.cols = cols;
            this.left = left;
            this.right = right;
        }

        @Override
        protected Long compute() {
            if (row >= forkDepth || cols == all) {
                return sequential(all, cols, left, right);
            }
            int free = ~(cols | left | right) & all;
            QueensTask[] parts = new QueensTask[Integer.bitCount(free)];
            int k = 0;
            while (free != 0) {
                int bit = free & -free;
                free -= bit;
                QueensTask t = new QueensTask(all, forkDepth, row + 1, cols | bit, (left | bit) << 1, (right | bit) >>> 1);
                t.fork();
                parts[k++] = t;
            }
            long count = 0;
            for (int i = k - 1; i >= 0; i--) {
                count += parts[i].join();
            }
            return count;
        }
    }
}
