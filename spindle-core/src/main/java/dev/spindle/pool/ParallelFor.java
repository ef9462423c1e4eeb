/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Task;
import dev.spindle.internal.Strays;
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
 *
 * <p><b>Failures.</b> A range catches what its bodies throw, joins its forks all the same, and
 * keeps the first failure with the others {@linkplain Throwable#addSuppressed suppressed}. A
 * fork returns its failure as its value ({@link #runCatching}) rather than throwing it: a
 * {@link Task#join()} rethrows a {@link CompletionException} that the computation threw as it is,
 * so a body's own {@code CompletionException} (from a {@code join()} in the body, say) could not
 * be told from the join's wrapper, and unwrapping it dropped the body's exception and every
 * failure suppressed in it.
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

    /**
     * Runs {@code [lo, hi)} on the current worker, spawning halves for peers, then joins them;
     * throws the first failure (a checked one wrapped in a {@link CompletionException}).
     */
    void run(int lo, int hi) {
        rethrow(runCatching(lo, hi));
    }

    /**
     * Runs {@code [lo, hi)} as {@link #run} does, but returns its failure instead of throwing
     * it: the first thing a body or a fork threw, with the others suppressed, or {@code null}.
     */
    Throwable runCatching(int lo, int hi) {
        Worker self = pool.currentWorker();
        ArrayDeque<Task<Throwable>> forks = new ArrayDeque<>();
        Throwable failure = null;
        try {
            while (lo < hi) {
                // long arithmetic: a range may be wider than Integer.MAX_VALUE, or end near it
                while ((long) hi - lo > grain && self != null && self.localSize() <= SPLIT_BELOW) {
                    int mid = (int) (((long) lo + hi) >> 1);
                    int a = mid;
                    int b = hi;
                    // the fork's failure is its value, not its exception: see the class overview
                    forks.push(pool.spawn(() -> runCatching(a, b)));
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
        for (Task<Throwable> f; (f = forks.poll()) != null; ) {
            Throwable forkFailure;
            try {
                forkFailure = f.join();
            } catch (RuntimeException | Error e) {
                forkFailure = e;               // the pool stopped before the fork completed
            }
            if (forkFailure == null || forkFailure == failure) {
                continue;                      // the same instance twice: a body rethrowing one
            }
            if (failure == null) {
                failure = forkFailure;
            } else {
                failure.addSuppressed(forkFailure);
            }
        }
        return failure;
    }

    /** Throws {@code failure} from {@link #runCatching}, if any, as {@link #run} does. */
    static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException re) {
            throw re;
        }
        if (failure instanceof Error err) {
            throw err;
        }
        if (failure != null) {
            // the message made here: the cause constructor prints the cause, and one whose
            // toString() threw had that thrown in place of this wrapper
            throw new CompletionException(Strays.describe(failure), failure);
        }
    }
}
