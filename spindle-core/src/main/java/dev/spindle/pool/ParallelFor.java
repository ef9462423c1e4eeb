/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Task;
import java.util.ArrayDeque;
import java.util.concurrent.CompletionException;
import java.util.function.IntConsumer;

/**
 * An adaptively split parallel loop (lazy binary splitting).
 *
 * <p>A range runs in chunks of {@code grain} indices. Before each chunk, while the running
 * worker's deque holds at most {@value #SPLIT_BELOW} task(s), it splits off the upper half of what
 * remains as a new task. An empty deque means peers took what was offered, so there is appetite
 * for more; a non-empty one means nobody is stealing, and splitting further would only add
 * overhead. The grain is small enough (about 1/16 of an even share) to rebalance uneven bodies,
 * while the deque test keeps the number of tasks near what the other workers actually take.
 */
final class ParallelFor {

    static final int SPLIT_BELOW = 1;

    private final WorkStealingPool pool;
    private final IntConsumer body;
    private final int grain;

    ParallelFor(WorkStealingPool pool, IntConsumer body, int from, int to) {
        this.pool = pool;
        this.body = body;
        long n = (long) to - from;
        this.grain = (int) Math.max(1, n / (16L * pool.parallelism()));
    }

    /** Runs {@code [lo, hi)} on the current worker, spawning halves for peers, then joins them. */
    void run(int lo, int hi) {
        Worker self = pool.currentWorker();
        ArrayDeque<Task<Void>> forks = new ArrayDeque<>();
        Throwable failure = null;
        try {
            while (lo < hi) {
                // long arithmetic: a range may be wider than Integer.MAX_VALUE, or end near it
                while ((long) hi - lo > grain && self != null && self.localSize() <= SPLIT_BELOW) {
                    int mid = (int) (((long) lo + hi) >> 1);
                    int a = mid;
                    int b = hi;
                    forks.push(pool.spawn(() -> {
                        run(a, b);
                        return null;
                    }));
                    hi = mid;
                }
                int end = (int) Math.min(hi, (long) lo + grain);
                for (int i = lo; i < end; i++) {
                    body.accept(i);
                }
                lo = end;
            }
        } catch (Throwable t) {
            failure = t;
        }
        for (Task<Void> f; (f = forks.poll()) != null; ) {
            try {
                f.join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                if (failure == null) {
                    failure = cause;
                } else if (failure != cause) {
                    failure.addSuppressed(cause);
                }
            } catch (RuntimeException | Error e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure instanceof RuntimeException re) {
            throw re;
        }
        if (failure instanceof Error err) {
            throw err;
        }
        if (failure != null) {
            throw new CompletionException(failure);
        }
    }
}
